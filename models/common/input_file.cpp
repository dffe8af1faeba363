#include "input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace l3vp {
namespace {

[[noreturn]] void bad(const std::string& noun, const std::string& path, const std::string& why) {
  throw InputFileError(noun + " '" + path + "': " + why);
}

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory";
  if (S_ISFIFO(m)) return "is a FIFO (named pipe)";
  if (S_ISCHR(m)) return "is a character device";
  if (S_ISBLK(m)) return "is a block device";
  if (S_ISSOCK(m)) return "is a socket";
  return "is not a regular file";
}

// Opens `path` and checks its type and size; returns the descriptor and
// the size. The descriptor is closed on every error.
int open_checked(const std::string& path, uint64_t max_bytes, const std::string& noun, uint64_t& size) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) bad(noun, path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    bad(noun, path, std::string("cannot stat: ") + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    bad(noun, path, std::string(kind_of(st.st_mode)) + ", not a regular file");
  }
  size = static_cast<uint64_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    bad(noun, path, "is empty");
  }
  if (size > max_bytes) {
    ::close(fd);
    bad(noun, path,
        "too large (" + std::to_string(size) + " bytes; at most " + format_bytes(max_bytes) + ")");
  }
  return fd;
}

}  // namespace

std::string format_bytes(uint64_t n) {
  if (n >= (uint64_t(1) << 20) && n % (uint64_t(1) << 20) == 0) return std::to_string(n >> 20) + " MiB";
  if (n >= 1024 && n % 1024 == 0) return std::to_string(n >> 10) + " KiB";
  return std::to_string(n) + " bytes";
}

void check_input_file(const std::string& path, uint64_t max_bytes, const std::string& noun) {
  uint64_t size = 0;
  ::close(open_checked(path, max_bytes, noun, size));
}

std::string read_input_file(const std::string& path, uint64_t max_bytes, const std::string& noun) {
  uint64_t size = 0;
  const int fd = open_checked(path, max_bytes, noun, size);
  std::string data;
  data.resize(static_cast<size_t>(size) + 1);  // one more: notices a file that grew
  size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(fd, &data[got], data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      bad(noun, path, std::string("read error: ") + std::strerror(err));
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
    if (got > max_bytes) {
      ::close(fd);
      bad(noun, path, "too large (grew while read; at most " + format_bytes(max_bytes) + ")");
    }
    if (got == data.size()) data.resize(std::min<uint64_t>(data.size() * 2, max_bytes + 1));
  }
  ::close(fd);
  if (got == 0) bad(noun, path, "is empty");
  data.resize(got);
  return data;
}

}  // namespace l3vp
