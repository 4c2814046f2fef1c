// Reading and writing whole text files: bounded, refusing what is not a regular file, atomic.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gpuplan {

/// Reads a whole regular file (a symbolic link to one is fine), refusing anything over
/// InputLimits::maxFileBytes. A folder, device, FIFO or socket is refused before it is opened
/// or read, with what it is; so is a path holding a NUL byte (the system would read the part
/// before it). Throws InputError.
std::string readTextFile(const std::filesystem::path& file);

/// Where a file's name was written: the file naming it and the key's JSON pointer (a trace's
/// "/traces/0/file", a lesson's or a sweep's "/scenario").
struct FileNamedBy {
    std::string file;
    std::string pointer;
};
/// readTextFile for a file another file names: every refusal to read it (not found, a folder,
/// a device, too large) is reported at the key that named it, "NAMING-FILE: /key: FILE: why".
std::string readTextFile(const std::filesystem::path& file, const FileNamedBy& namedBy);

/// The folder holding `file`: "." for a bare file name, whose parent_path() is empty.
std::filesystem::path folderOf(const std::filesystem::path& file);

/// Writes to a temporary file in the same folder, flushes it to disk and renames it over
/// `file`, so a crash never leaves a half-written file. Throws std::runtime_error.
void writeFileAtomic(const std::filesystem::path& file, std::string_view text);

}  // namespace gpuplan
