#pragma once
// ONNX beside TorchScript, for clients that run the network themselves (a browser with
// onnxruntime-web, say). LibTorch's C++ API has no ONNX exporter, so the conversion runs
// in Debian's python3-torch (torch.onnx) on the exported TorchScript file; the ONNX file
// carries meta.json in its metadata (key "meta.json").
#include <string>

namespace azg::nets {

// Writes `onnx_path` from the exported model at `model_path` (dynamic batch, inputs
// "planes", outputs "policy" and "value" as the TorchScript forward returns them).
// Throws azg::Error with Python's last error line when the conversion fails.
void export_onnx(const std::string& model_path, const std::string& onnx_path);

// The ONNX file's path beside a model: m.pt -> m.onnx.
std::string onnx_path_for(const std::string& model_path);

}  // namespace azg::nets
