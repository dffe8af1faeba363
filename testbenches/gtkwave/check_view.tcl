# Run inside GTKWave (gtkwave -S check_view.tcl DUMP VIEW.gtkw) by
# run_gtkwave_test.py: every signal the view names must be a signal of the
# dump (gtkwave::getFacName) and on display (gtkwave::getDisplayedSignals,
# i.e. the save file's line was matched and loaded), and the window must
# start where the view's [timestart] says. The view's path comes
# in L3VP_VIEW (a script started with -S gets no arguments). Prints one
# "gtkwave-check:" line per problem and a last "gtkwave-check: ok N" or
# "gtkwave-check: FAILED N", then quits.

proc view_signals {path} {
  # Save-file lines that name a trace: not [settings], *zoom, @flags, -comments.
  set f [open $path r]
  set names [list]
  while {[gets $f line] >= 0} {
    set line [string trim $line]
    if {$line eq ""} continue
    if {[string index $line 0] in {"\[" "*" "@" "-"}} continue
    lappend names $line
  }
  close $f
  return $names
}

proc check {} {
  global env
  set problems 0
  set view $env(L3VP_VIEW)
  set wanted [view_signals $view]

  set facs [dict create]
  set n [gtkwave::getNumFacs]
  for {set i 0} {$i < $n} {incr i} { dict set facs [gtkwave::getFacName $i] 1 }
  set shown [dict create]
  foreach s [gtkwave::getDisplayedSignals] { dict set shown $s 1 }

  foreach s $wanted {
    if {![dict exists $facs $s]} {
      puts "gtkwave-check: $s: named by the view, not in the dump"
      incr problems
    } elseif {![dict exists $shown $s]} {
      puts "gtkwave-check: $s: in the dump but not displayed"
      incr problems
    }
  }
  # The view's initial window was applied: it starts at [timestart].
  set f [open $view r]
  set start ""
  foreach line [split [read $f] "\n"] {
    if {[regexp {^\[timestart\] (\d+)} $line -> t]} { set start $t }
  }
  close $f
  set shown_start [gtkwave::getWindowStartTime]
  if {$start ne "" && $shown_start != $start} {
    puts "gtkwave-check: the window starts at $shown_start, the view says $start"
    incr problems
  }
  if {[llength $wanted] == 0} {
    puts "gtkwave-check: the view names no signal"
    incr problems
  }
  if {$problems == 0} {
    puts "gtkwave-check: ok [llength $wanted] signals of [file tail $view], $n in the dump"
  } else {
    puts "gtkwave-check: FAILED $problems"
  }
}

# A Tcl error would leave GTKWave running: report it and quit all the same.
if {[catch check err]} {
  puts "gtkwave-check: FAILED: Tcl error: $err"
}
flush stdout
gtkwave::/File/Quit
