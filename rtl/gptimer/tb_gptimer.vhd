-- Self-checking GHDL testbench of rtl/gptimer/gptimer.vhd (CTest
-- rtl.gptimer.ghdl): reset values, prescaler, reload and interrupt period,
-- one-clock irq pulses, IP write-1-clear, RS=0 stop, LD, chaining, CONFIG
-- enable bits and the hold input. Every check is an assert of severity
-- failure; the last line is the "PASS" report the CTest wrapper looks for.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity tb_gptimer is
end entity;

architecture sim of tb_gptimer is
  constant tclk : time := 10 ns;
  signal clk     : std_ulogic := '0';
  signal rstn    : std_ulogic := '0';
  signal hold    : std_ulogic := '0';
  signal psel    : std_ulogic := '0';
  signal penable : std_ulogic := '0';
  signal paddr   : std_ulogic_vector(7 downto 0) := (others => '0');
  signal pwrite  : std_ulogic := '0';
  signal pwdata  : std_ulogic_vector(31 downto 0) := (others => '0');
  signal prdata  : std_ulogic_vector(31 downto 0);
  signal irq     : std_ulogic_vector(1 downto 0);
  signal done    : boolean := false;
begin
  clk <= not clk after tclk / 2 when not done;

  dut : entity work.gptimer
    generic map (ntimers => 2, sbits => 8, nbits => 32, pirq => 8, sepirq => 1)
    port map (clk, rstn, hold, psel, penable, paddr, pwrite, pwdata, prdata, irq);

  stim : process
    -- APB write: setup phase, then the access phase sampled at a rising edge.
    procedure apb_write(a : natural; d : std_ulogic_vector(31 downto 0)) is
    begin
      psel <= '1'; pwrite <= '1'; penable <= '0';
      paddr <= std_ulogic_vector(to_unsigned(a, 8)); pwdata <= d;
      wait until rising_edge(clk);
      penable <= '1';
      wait until rising_edge(clk);
      psel <= '0'; penable <= '0'; pwrite <= '0';
    end procedure;
    procedure apb_read(a : natural; d : out std_ulogic_vector(31 downto 0)) is
    begin
      psel <= '1'; pwrite <= '0'; penable <= '0';
      paddr <= std_ulogic_vector(to_unsigned(a, 8));
      wait until rising_edge(clk);
      penable <= '1';
      wait for 1 ns;
      d := prdata;
      wait until rising_edge(clk);
      psel <= '0'; penable <= '0';
    end procedure;
    procedure expect(a : natural; e : std_ulogic_vector(31 downto 0); what : string) is
      variable d : std_ulogic_vector(31 downto 0);
    begin
      apb_read(a, d);
      assert d = e report what & ": read " & to_hstring(d) & ", expected " & to_hstring(e)
        severity failure;
    end procedure;
    -- Clocks until irq(i) is sampled high at a rising edge (at most lim).
    procedure wait_irq(i : natural; lim : natural; n : out natural) is
    begin
      for k in 1 to lim loop
        wait until rising_edge(clk);
        if irq(i) = '1' then
          n := k;
          return;
        end if;
      end loop;
      n := lim + 1;
    end procedure;
    function w(x : natural) return std_ulogic_vector is
    begin
      return std_ulogic_vector(to_unsigned(x, 32));
    end function;
    variable n, m : natural;
    variable d    : std_ulogic_vector(31 downto 0);
  begin
    wait until rising_edge(clk);
    wait until rising_edge(clk);
    rstn <= '1';
    wait until rising_edge(clk);

    -- Reset values.
    expect(16#00#, w(16#FF#), "SCALER reset");
    expect(16#04#, w(16#FF#), "SRELOAD reset");
    expect(16#08#, w(2 + 8 * 8 + 256), "CONFIG");
    expect(16#18#, w(0), "TCTRL1 reset");
    expect(16#10#, w(0), "TCNTVAL1 reset");
    expect(16#80# + 16#04#, w(16#FF#), "alias at +0x80");

    -- Prescaler frozen while no timer is enabled.
    apb_write(16#04#, w(4));
    expect(16#00#, w(4), "SRELOAD write loads SCALER");
    for k in 1 to 5 loop
      wait until rising_edge(clk);
    end loop;
    expect(16#00#, w(4), "SCALER frozen without enabled timer");

    -- Reload and interrupt period: (9+1)*(4+1) = 50 clocks, one-clock pulses.
    apb_write(16#14#, w(9));
    apb_write(16#18#, w(16#F#));  -- EN RS LD IE
    expect(16#10#, w(9), "LD loads TCNTVAL");
    wait_irq(0, 200, n);
    assert n <= 60 report "timer 1: no interrupt" severity failure;
    wait until rising_edge(clk);
    assert irq(0) = '0' report "irq pulse longer than one clock" severity failure;
    wait_irq(0, 200, n);
    assert n = 49 report "timer 1 period " & integer'image(n + 1) & ", expected 50" severity failure;
    wait_irq(0, 200, n);
    assert n = 50 report "timer 1 period " & integer'image(n) & ", expected 50" severity failure;
    assert irq(1) = '0' report "timer 2 irq without enable" severity failure;

    -- IP: set by the underflow, write 0 leaves it, write 1 clears it.
    expect(16#18#, w(16#1B#), "TCTRL1 with IP");
    apb_write(16#18#, w(16#B#));
    apb_read(16#18#, d);
    assert d(4) = '1' report "IP cleared by writing 0" severity failure;
    apb_write(16#18#, w(16#1B#));
    apb_read(16#18#, d);
    assert d(4) = '0' report "IP not cleared by writing 1" severity failure;

    -- RS=0: one underflow, then EN=0 and the counter at all ones.
    apb_write(16#18#, w(0));
    apb_write(16#14#, w(3));
    apb_write(16#18#, w(16#D#));  -- EN LD IE, RS=0
    wait_irq(0, 100, n);
    assert n <= 30 report "RS=0: no interrupt" severity failure;
    expect(16#18#, w(16#18#), "RS=0: EN cleared after the underflow");
    expect(16#10#, x"FFFFFFFF", "RS=0: counter left at all ones");
    wait_irq(0, 100, n);
    assert n = 101 report "RS=0: a second interrupt" severity failure;
    apb_write(16#18#, w(16#10#));  -- clear IP

    -- Chaining: timer 2 (CH) counts timer 1 underflows:
    -- period (2+1)*(3+1)*(4+1) = 60 clocks.
    apb_write(16#24#, w(2));
    apb_write(16#28#, w(16#2F#));  -- EN RS LD IE CH
    apb_write(16#14#, w(3));
    apb_write(16#18#, w(16#7#));   -- EN RS LD, no IE
    wait_irq(1, 400, n);
    assert n <= 80 report "chain: no interrupt of timer 2" severity failure;
    wait_irq(1, 400, n);
    assert n = 60 report "chain period " & integer'image(n) & ", expected 60" severity failure;
    assert irq(0) = '0' report "timer 1 irq with IE=0" severity failure;

    -- Timer 1 with CH=1 never decrements (its chain input has expired).
    apb_write(16#18#, w(16#27#));
    apb_read(16#10#, d);
    for k in 1 to 40 loop
      wait until rising_edge(clk);
    end loop;
    expect(16#10#, d, "timer 1 with CH=1 decremented");

    -- Stop everything; CONFIG bit 16 enables timer 1.
    apb_write(16#18#, w(0));
    apb_write(16#28#, w(16#10#));
    apb_read(16#00#, d);
    for k in 1 to 7 loop
      wait until rising_edge(clk);
    end loop;
    expect(16#00#, d, "SCALER moved with all timers off");
    apb_write(16#08#, w(16#10000#));
    expect(16#18#, w(1), "CONFIG bit 16 sets EN of timer 1");

    -- hold: counting frozen, writes still applied.
    hold <= '1';
    apb_read(16#10#, d);
    for k in 1 to 30 loop
      wait until rising_edge(clk);
    end loop;
    expect(16#10#, d, "timer counted during hold");
    apb_write(16#14#, w(16#55#));
    expect(16#14#, w(16#55#), "write during hold");
    hold <= '0';

    done <= true;
    report "PASS";
    wait;
  end process;
end architecture;
