// `verify` and `opt --verify` in the executable: arguments are checked here, and the verify
// plugin (libdeclone-verify.so beside the executable, the only part that links libtorch) is
// loaded on first use, so that nothing else pays for loading libtorch.
#include "Commands.h"
#include "Input.h"
#include "VerifyFlags.h"

#include <dlfcn.h>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

namespace declone::cli {
namespace {

struct VerifyPlugin {
  VerifyMainFn* main = nullptr;
  VerifyRewriteFn* rewrite = nullptr;
};

/// The plugin's path: next to the running executable.
std::filesystem::path pluginPath() {
  std::error_code error;
  std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  std::filesystem::path directory = error ? std::filesystem::path(".") : executable.parent_path();
  return directory / "libdeclone-verify.so";
}

/// The loaded plugin, or nullptr with the reason reported (the plugin stays loaded until exit).
const VerifyPlugin* loadPlugin() {
  static VerifyPlugin plugin;
  static bool loaded = false;
  if (loaded)
    return &plugin;
  std::filesystem::path path = pluginPath();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    reportUsageError("the verifier is not installed: this declone was built without libtorch.\n"
                     "To get it, install PyTorch first (pip install torch==2.13.0, or Debian's "
                     "libtorch-dev) and build or pip-install declone again.");
    return nullptr;
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    reportUsageError(std::string("cannot load the verifier: ") + dlerror());
    return nullptr;
  }
  auto* abi = reinterpret_cast<VerifyPluginAbiFn*>(dlsym(handle, "declone_verify_plugin_abi"));
  plugin.main = reinterpret_cast<VerifyMainFn*>(dlsym(handle, "declone_verify_main"));
  plugin.rewrite = reinterpret_cast<VerifyRewriteFn*>(dlsym(handle, "declone_verify_rewrite"));
  if (!abi || !plugin.main || !plugin.rewrite || abi() != kVerifyPluginAbi) {
    reportUsageError("cannot load the verifier: " + path.string() +
                     " is not the verify plugin of this build of declone");
    return nullptr;
  }
  loaded = true;
  return &plugin;
}

} // namespace

int runVerify(std::span<const std::string_view> args) {
  // --help and usage errors are answered without loading libtorch.
  VerifyFlags flags;
  ArgumentParser parser = flags.parser();
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  const VerifyPlugin* plugin = loadPlugin();
  return plugin ? plugin->main(args.data(), args.size()) : kBadInput;
}

int verifyRewrite(const GraphFile& before, const GraphFile& after, std::string_view name,
                  const std::vector<std::vector<bool>>& donated,
                  const std::vector<std::string>& schemaFiles) {
  const VerifyPlugin* plugin = loadPlugin();
  return plugin ? plugin->rewrite(&before, &after, &name, &donated, &schemaFiles) : kBadInput;
}

} // namespace declone::cli
