// Whole-file reads of regular files only, their size checked before reading; atomic writes
// (temp file, fsync, rename).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>

#include "gpuplan/io/input_error.hpp"
#include "gpuplan/io/text_files.hpp"
#include "text_rules.hpp"

namespace gpuplan {

namespace fs = std::filesystem;

namespace {

/// What a path that is not a regular file is, for "FILE: is a …, not a regular file".
std::string notRegularFile(mode_t mode) {
    if (S_ISDIR(mode)) return "is a folder, not a regular file";
    if (S_ISCHR(mode)) return "is a character device, not a regular file";
    if (S_ISBLK(mode)) return "is a block device, not a regular file";
    if (S_ISFIFO(mode)) return "is a named pipe (FIFO), not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    return "is not a regular file";
}

std::string tooLarge() {
    return "file is larger than " + std::to_string(InputLimits::maxFileBytes >> 20) + " MB";
}

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : m_fd(fd) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (m_fd >= 0) ::close(m_fd);
    }
    int get() const { return m_fd; }

private:
    int m_fd;
};

}  // namespace

fs::path folderOf(const fs::path& file) {
    return file.has_parent_path() ? file.parent_path() : fs::path(".");
}

std::string readTextFile(const fs::path& file) {
    const std::string name = file.string();
    // The system takes a path up to its first NUL: "a.csv\0x" would read a.csv.
    if (name.find('\0') != std::string::npos)
        throw InputError(name, "", "the path holds a NUL byte, which no file name can");
    // The type first, from the path: opening a FIFO would block and a socket cannot be opened,
    // and a device (/dev/zero) never ends.
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) {
        const int error = errno;
        struct stat link {};
        std::error_code ec;
        if (error == ENOENT && ::lstat(file.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
            throw InputError(name, "",
                             "is a symbolic link to \"" +
                                 detail::escapedForMessage(fs::read_symlink(file, ec).string()) +
                                 "\", which does not exist");
        if (error == ENOENT || error == ENOTDIR) throw InputError(name, "", "file not found");
        throw InputError(name, "", std::string("cannot open: ") + std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) throw InputError(name, "", notRegularFile(info.st_mode));
    // O_NONBLOCK: should the path have become a FIFO since stat(), open() must not wait.
    const FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0)
        throw InputError(name, "", std::string("cannot open: ") + std::strerror(errno));
    // Type and size of what was opened, not of what the path named a moment ago.
    if (::fstat(fd.get(), &info) != 0)
        throw InputError(name, "", std::string("cannot read: ") + std::strerror(errno));
    if (!S_ISREG(info.st_mode)) throw InputError(name, "", notRegularFile(info.st_mode));
    if (static_cast<std::uintmax_t>(info.st_size) > InputLimits::maxFileBytes)
        throw InputError(name, "", tooLarge());
    // Read to the end, one byte past the limit at most: the file may grow while it is read.
    std::string text(static_cast<std::size_t>(info.st_size), '\0');
    std::size_t done = 0;
    for (;;) {
        if (done == text.size()) {
            if (text.size() > InputLimits::maxFileBytes) throw InputError(name, "", tooLarge());
            text.resize(
                std::min<std::size_t>(text.size() + (64u << 10), InputLimits::maxFileBytes + 1));
        }
        const ssize_t n = ::read(fd.get(), text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw InputError(name, "", std::string("cannot read: ") + std::strerror(errno));
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    text.resize(done);
    return text;
}

std::string readTextFile(const fs::path& file, const FileNamedBy& namedBy) {
    try {
        return readTextFile(file);
    } catch (const InputError& e) {
        // e.file() is the path, e.message() why it cannot be read (e.place() is empty).
        throw InputError(namedBy.file, namedBy.pointer.empty() ? "/" : namedBy.pointer,
                         e.file() + ": " + e.message());
    }
}

void writeFileAtomic(const fs::path& file, std::string_view text) {
    const fs::path dir = folderOf(file);
    // A unique temporary name in the same folder, so rename() stays on one file system.
    std::random_device rd;
    const fs::path tmp = dir / ("." + file.filename().string() + ".tmp" + std::to_string(rd()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        throw std::runtime_error("cannot write " + file.string() + ": " + std::strerror(errno));
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            throw std::runtime_error("cannot write " + file.string() + ": " + why);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        throw std::runtime_error("cannot write " + file.string() + ": " + why);
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        throw std::runtime_error("cannot replace " + file.string() + ": " + why);
    }
    // Make the rename itself durable.
    if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

}  // namespace gpuplan
