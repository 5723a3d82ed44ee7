// A main() for the fuzz targets in builds without libFuzzer (GCC): runs
// LLVMFuzzerTestOneInput once on each file named on the command line or found in a named
// folder, so the corpora, crashes found included, run as regression tests under ctest.
// With -mutate_seconds=S it then keeps feeding random mutants of those files (bit flips,
// byte changes, cuts, deleted, repeated and inserted chunks) for S seconds: a plain
// mutation fuzzer for the targets that libFuzzer cannot build (LibTorch's loaders).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void run(const Bytes& bytes) {
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

Bytes mutate(Bytes b, std::mt19937_64& rng) {
  auto below = [&](std::size_t n) {
    return n == 0 ? std::size_t{0} : static_cast<std::size_t>(rng() % n);
  };
  const int edits = 1 + static_cast<int>(below(4));
  for (int e = 0; e < edits; ++e) {
    switch (below(6)) {
      case 0:  // flip a bit
        if (!b.empty()) b[below(b.size())] ^= static_cast<std::uint8_t>(1u << below(8));
        break;
      case 1:  // a byte to an edge value
        if (!b.empty())
          b[below(b.size())] = std::array<std::uint8_t, 4>{0, 1, 0x7f, 0xff}[below(4)];
        break;
      case 2:  // cut the end
        b.resize(below(b.size() + 1));
        break;
      case 3: {  // delete a chunk
        const std::size_t at = below(b.size() + 1), n = std::min(b.size() - at, below(64) + 1);
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
                b.begin() + static_cast<std::ptrdiff_t>(at + n));
        break;
      }
      case 4: {  // repeat a chunk
        if (b.empty()) break;
        const std::size_t at = below(b.size()), n = std::min(b.size() - at, below(64) + 1);
        const Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(at),
                          b.begin() + static_cast<std::ptrdiff_t>(at + n));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), chunk.begin(),
                 chunk.end());
        break;
      }
      default: {  // insert random bytes
        Bytes noise(below(16) + 1);
        for (auto& x : noise) x = static_cast<std::uint8_t>(rng());
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), noise.begin(),
                 noise.end());
      }
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  double mutate_seconds = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("-mutate_seconds=", 0) == 0) {
      mutate_seconds = std::stod(arg.substr(16));
      continue;
    }
    const std::filesystem::path path(arg);
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Bytes> corpus;
  for (const auto& f : files) corpus.push_back(read_file(f));
  for (const auto& bytes : corpus) run(bytes);
  std::printf("%zu inputs ran without a crash\n", corpus.size());
  if (corpus.empty()) return 1;
  if (mutate_seconds > 0) {
    std::mt19937_64 rng(std::random_device{}());
    const auto end =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(mutate_seconds);
    std::uint64_t mutants = 0;
    const std::string keep = "mutant-in-progress";  // the input being run, kept if it crashes
    while (std::chrono::steady_clock::now() < end) {
      const Bytes m = mutate(corpus[mutants % corpus.size()], rng);
      std::ofstream(keep, std::ios::binary | std::ios::trunc)
          .write(reinterpret_cast<const char*>(m.data()), static_cast<std::streamsize>(m.size()));
      run(m);
      ++mutants;
    }
    std::filesystem::remove(keep);
    std::printf("%llu mutants ran without a crash in %.0f s\n",
                static_cast<unsigned long long>(mutants), mutate_seconds);
  }
  return 0;
}
