// The committed seeds of a generator: `--write` puts every file the
// generator makes under the corpus root and removes what it no longer makes;
// `--check` reports every file that is missing, differs, or is no longer
// made, and fails. Shared by corpus/gen/*_make_seeds.cc (header only: the
// generators are single-file tools).
#ifndef FAIRWIRE_CORPUS_GEN_SEED_FILES_H_
#define FAIRWIRE_CORPUS_GEN_SEED_FILES_H_

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

namespace fairwire::seeds {

// Corpus-relative path ("poll_schedule/x") to contents.
using Files = std::map<std::string, std::string>;

// The whole file at `path`, or false.
inline bool ReadFile(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 0) return false;
  out.resize(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  return static_cast<bool>(in);
}

// Runs `tool --write|--check ROOT` for `files`; `owned` are the corpus
// folders the generator owns (files there it does not make are stale;
// README files, dotfiles and subfolders such as regressions/ are not).
// Returns the exit status.
inline int SyncSeeds(std::string_view tool, int argc, char** argv,
                     const Files& files,
                     std::initializer_list<std::string_view> owned) {
  namespace fs = std::filesystem;
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--write" && mode != "--check") {
    std::fprintf(stderr, "usage: %s --write|--check CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const bool write = mode == "--write";
  const fs::path root = argv[2];
  int problems = 0;
  for (const auto& [rel, contents] : files) {
    const fs::path path = root / rel;
    if (write) {
      fs::create_directories(path.parent_path());
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
      if (!out) {
        std::fprintf(stderr, "%.*s: cannot write %s\n",
                     static_cast<int>(tool.size()), tool.data(), path.c_str());
        return 2;
      }
      continue;
    }
    std::string committed;
    if (!ReadFile(path, committed)) {
      std::printf("missing: %s\n", rel.c_str());
      ++problems;
    } else if (committed != contents) {
      std::printf("differs: %s\n", rel.c_str());
      ++problems;
    }
  }
  for (std::string_view folder : owned) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root / folder, ec)) {
      const std::string base = entry.path().filename().string();
      if (!entry.is_regular_file() || base == "README" || base.starts_with("."))
        continue;
      const std::string rel = std::string(folder) + "/" + base;
      if (files.count(rel) != 0) continue;
      if (write) {
        fs::remove(entry.path());
      } else {
        std::printf("not made by the generator: %s\n", rel.c_str());
        ++problems;
      }
    }
  }
  const int tool_len = static_cast<int>(tool.size());
  if (write) {
    std::printf("%.*s: wrote %zu files under %s\n", tool_len, tool.data(),
                files.size(), root.c_str());
    return 0;
  }
  if (problems > 0) {
    std::printf(
        "%.*s: %d files out of date; run %.*s --write corpus from the source "
        "root\n",
        tool_len, tool.data(), problems, tool_len, tool.data());
    return 1;
  }
  std::printf("%.*s: %zu files up to date\n", tool_len, tool.data(),
              files.size());
  return 0;
}

}  // namespace fairwire::seeds

#endif  // FAIRWIRE_CORPUS_GEN_SEED_FILES_H_
