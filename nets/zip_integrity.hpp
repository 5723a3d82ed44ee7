#pragma once
// Models and checkpoints are zip archives (LibTorch's format). LibTorch 1.13's readers
// trust them: fuzzing found a damaged entry size that made it allocate 40 GB and a
// damaged TorchScript source that crashed its parser. So before LibTorch opens a file,
// its zip structure is checked here: every entry lies inside the file, and every stored
// entry matches the CRC-32 its directory records. Damage by truncation or changed bytes
// is refused with one line; a file crafted to pass these checks is not defended against
// (load only models you trust, as with any TorchScript file).
#include <string>

namespace azg::nets {

// Throws Error("PATH is damaged: ...") when the archive is cut short or an entry's
// bytes do not match its checksum. Zip64 archives (over 4 GiB) are left to LibTorch.
void check_zip_integrity(const std::string& path);

}  // namespace azg::nets
