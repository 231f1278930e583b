// Prints the schema of every operator registered in libtorch, one per line, sorted.
//
// The dispatcher holds the operators with kernels (aten, quantized, ...); the TorchScript operator
// table adds the ones only TorchScript knows (prim::, aten::__getitem__.t, ...). `torch.ops`
// resolves names against both, so graph dumps may name either.
#include <ATen/core/dispatch/Dispatcher.h>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <torch/csrc/jit/runtime/operator.h>
#include <torch/version.h>

namespace {

void addSchema(std::map<std::string, std::string>& schemas, const c10::FunctionSchema& schema) {
  std::ostringstream text;
  text << schema;
  std::string key = schema.name() + "." + schema.overload_name();
  schemas.emplace(std::move(key), text.str());
}

} // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: declone-gen-schemas OUTPUT\n";
    return 2;
  }
  // Keyed by name and overload, so each operator appears once even though most are in both tables.
  std::map<std::string, std::string> schemas;
  c10::Dispatcher& dispatcher = c10::Dispatcher::singleton();
  for (const c10::OperatorName& name : dispatcher.getAllOpNames())
    if (auto handle = dispatcher.findSchema(name))
      addSchema(schemas, handle->schema());
  for (const auto& op : torch::jit::getAllOperators())
    addSchema(schemas, op->schema());

  std::ofstream out(argv[1], std::ios::binary);
  out << "# Operator schemas of libtorch " << TORCH_VERSION
      << ", written by declone-gen-schemas.\n";
  for (const auto& [key, text] : schemas)
    out << text << '\n';
  out.close();
  if (!out) {
    std::cerr << "declone-gen-schemas: cannot write " << argv[1] << '\n';
    return 1;
  }
  return 0;
}
