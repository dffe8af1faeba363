// Finishing an output file (--stats, --trace, --uart-out, --pcap, ...) so
// that a write that failed at any point (a full disk, /dev/full) is
// reported instead of silently losing data: stdio and iostreams keep a
// sticky error state, and the data still buffered is only written (and can
// only fail) at the final flush, so the check belongs at the end, after
// the flush. Each function returns "" when everything reached the file, or
// the reason ("No space left on device"); the caller reports it with the
// option's name and the path.
#pragma once
#include <cstdio>
#include <fstream>
#include <string>

namespace l3vp {

// Flushes `f` (and closes it when `close`): "" or the reason.
std::string finish_output(std::FILE* f, bool close);
// Flushes and closes `f` (a no-op "" when it was never opened).
std::string finish_output(std::ofstream& f);

// "<option>: write to '<path>' failed: <reason>" (path "-" = stdout).
std::string output_failure(const std::string& option, const std::string& path, const std::string& reason);

}  // namespace l3vp
