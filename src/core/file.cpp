#include "dereth/core/file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#if !defined(_WIN32)
#include <fcntl.h>
#include <unistd.h>
#endif

namespace dereth::core {

Result<void> write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  static std::atomic<unsigned> counter{0};
  const std::string name = path.string();
  auto io_error = [&](std::string_view field, std::string detail) {
    return std::unexpected(Error{ErrorKind::Io, name, std::string(field), 0, std::move(detail)});
  };
#if defined(_WIN32)
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp-{}", counter.fetch_add(1));
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    file.flush();
    if (!file) {
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      return io_error("write", "cannot write the temporary file");
    }
  }
#else
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp-{}-{}", ::getpid(), counter.fetch_add(1));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("open", fmt::format("{}: {}", temp.string(), std::strerror(errno)));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      return io_error("write", std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return io_error("fsync", std::strerror(err));
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return io_error("close", std::strerror(err));
  }
#endif
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    return io_error("rename", ec.message());
  }
  return {};
}

}  // namespace dereth::core
