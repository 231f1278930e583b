// Loads the verify plugin (libdeclone-verify.so beside the executable) on first use, so that
// only `verify` and `opt --verify` pay for loading libtorch.
#include "Commands.h"
#include "Input.h"

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
std::string pluginPath() {
  std::error_code error;
  std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  std::filesystem::path directory = error ? std::filesystem::path(".") : executable.parent_path();
  return (directory / "libdeclone-verify.so").string();
}

/// The loaded plugin, or nullptr with the reason reported (the plugin stays loaded until exit).
const VerifyPlugin* loadPlugin() {
  static VerifyPlugin plugin;
  static bool loaded = false;
  if (loaded)
    return &plugin;
  std::string path = pluginPath();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    reportUsageError(std::string("cannot load the verifier: ") + dlerror());
    return nullptr;
  }
  auto* abi = reinterpret_cast<VerifyPluginAbiFn*>(dlsym(handle, "declone_verify_plugin_abi"));
  plugin.main = reinterpret_cast<VerifyMainFn*>(dlsym(handle, "declone_verify_main"));
  plugin.rewrite = reinterpret_cast<VerifyRewriteFn*>(dlsym(handle, "declone_verify_rewrite"));
  if (!abi || !plugin.main || !plugin.rewrite || abi() != kVerifyPluginAbi) {
    reportUsageError("cannot load the verifier: " + path +
                     " is not the verify plugin of this build of declone");
    return nullptr;
  }
  loaded = true;
  return &plugin;
}

} // namespace

int runVerify(std::span<const std::string_view> args) {
  const VerifyPlugin* plugin = loadPlugin();
  return plugin ? plugin->main(args.data(), args.size()) : kBadInput;
}

int verifyRewrite(const GraphFile& before, const GraphFile& after, std::string_view name,
                  const std::vector<std::vector<bool>>& donated) {
  const VerifyPlugin* plugin = loadPlugin();
  return plugin ? plugin->rewrite(&before, &after, &name, &donated) : kBadInput;
}

} // namespace declone::cli
