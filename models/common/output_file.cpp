#include "output_file.h"

#include <cerrno>
#include <cstring>

namespace l3vp {

std::string finish_output(std::FILE* f, bool close) {
  if (!f) return "";
  std::string why;
  errno = 0;
  if (std::fflush(f) != 0)
    why = errno ? std::strerror(errno) : "write error";
  else if (std::ferror(f))  // an earlier write (or flush) failed; its data is gone
    why = "write error";
  if (close) {
    errno = 0;
    if (std::fclose(f) != 0 && why.empty()) why = errno ? std::strerror(errno) : "close failed";
  }
  return why;
}

namespace {
std::string close_failed(std::ofstream& f) {
  const std::string why = errno ? std::strerror(errno) : "write error";
  f.close();
  return why;
}
}  // namespace

std::string finish_output(std::ofstream& f) {
  if (!f.is_open()) return "";
  std::string why;
  // Called right after the last write: a stream that already failed did so
  // in that write, whose errno is still there.
  if (!f) return close_failed(f);
  errno = 0;
  f.flush();
  if (!f) why = errno ? std::strerror(errno) : "write error";
  errno = 0;
  f.close();
  if (!f && why.empty()) why = errno ? std::strerror(errno) : "write error";
  return why;
}

std::string output_failure(const std::string& option, const std::string& path, const std::string& reason) {
  return option + ": write to " + (path == "-" ? std::string("stdout") : "'" + path + "'") +
         " failed: " + reason;
}

}  // namespace l3vp
