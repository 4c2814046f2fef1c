// Whole-file reads with a size limit, and atomic writes (temp file, fsync, rename).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "gpuplan/scenario_io.hpp"

namespace gpuplan {

namespace fs = std::filesystem;

std::string readTextFile(const fs::path& file) {
    std::error_code ec;
    const auto status = fs::status(file, ec);
    if (ec || !fs::exists(status)) throw InputError(file.string(), "", "file not found");
    if (fs::is_directory(status)) throw InputError(file.string(), "", "is a folder, not a file");
    const auto size = fs::file_size(file, ec);
    if (!ec && size > InputLimits::maxFileBytes)
        throw InputError(
            file.string(), "",
            "file is larger than " + std::to_string(InputLimits::maxFileBytes >> 20) + " MB");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError(file.string(), "", std::string("cannot open: ") + std::strerror(errno));
    std::string text;
    text.resize(static_cast<std::size_t>(ec ? 0 : size));
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    if (ec) {  // size unknown (a pipe): read on, still bounded
        std::ostringstream rest;
        rest << in.rdbuf();
        text = rest.str();
        if (text.size() > InputLimits::maxFileBytes)
            throw InputError(file.string(), "", "file is too large");
    }
    return text;
}

void writeFileAtomic(const fs::path& file, std::string_view text) {
    const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
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
