#include "nets/onnx_export.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/error.hpp"

extern char** environ;

namespace azg::nets {
namespace {

// argv: model, onnx. Written to a temporary name, checked, then renamed into place.
constexpr const char* kScript = R"PY(
import os, sys
model_path, onnx_path = sys.argv[1], sys.argv[2]
try:
    import torch
except ImportError:
    sys.exit("python3-torch is not installed (bash tools/setup.sh installs it)")
extra = {"meta.json": ""}
module = torch.jit.load(model_path, map_location="cpu", _extra_files=extra)
module.eval()
meta = extra["meta.json"].decode() if isinstance(extra["meta.json"], bytes) else extra["meta.json"]
import json
shape = json.loads(meta)["planes"]
example = torch.zeros(1, *shape)
tmp = onnx_path + ".tmp"
import warnings
warnings.filterwarnings("ignore")
batch_axis = {0: "batch"}
torch.onnx.export(module, (example,), tmp, input_names=["planes"], output_names=["policy", "value"],
                  dynamic_axes={"planes": batch_axis, "policy": batch_axis, "value": batch_axis},
                  opset_version=13)
try:
    import onnx
except ImportError:
    os.remove(tmp)
    sys.exit("python3-onnx is not installed (bash tools/setup.sh installs it)")
m = onnx.load(tmp)
entry = m.metadata_props.add()
entry.key, entry.value = "meta.json", meta
onnx.checker.check_model(m)
onnx.save(m, tmp)
os.replace(tmp, onnx_path)
)PY";

std::string python() {
  // Debian's interpreter, where python3-torch lives, before any other on the PATH.
  if (const char* p = std::getenv("AZG_PYTHON")) return p;
  return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

// Runs argv, returns its exit status and its output (stdout and stderr together).
int run(const std::vector<std::string>& args, std::string& output) {
  int fds[2];
  if (pipe(fds) != 0) throw Error(std::string("cannot make a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    throw Error("cannot run " + args[0] + ": " + std::strerror(spawned));
  }
  std::array<char, 4096> buffer;
  for (ssize_t n; (n = read(fds[0], buffer.data(), buffer.size())) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const auto nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

}  // namespace

std::string onnx_path_for(const std::string& model_path) {
  return std::filesystem::path(model_path).replace_extension(".onnx").string();
}

void export_onnx(const std::string& model_path, const std::string& onnx_path) {
  if (!std::filesystem::is_regular_file(model_path)) throw Error("no model at " + model_path);
  std::string output;
  const int status = run({python(), "-c", kScript, model_path, onnx_path}, output);
  if (status != 0) {
    std::filesystem::remove(onnx_path + ".tmp");
    throw Error("ONNX export of " + model_path + " failed: " + last_line(output));
  }
}

}  // namespace azg::nets
