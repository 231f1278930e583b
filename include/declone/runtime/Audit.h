// The alias-and-write audit: runs an op overload with libtorch on fresh random inputs of several
// layouts and dtypes, records which results share storage with which arguments and which
// arguments' contents changed, and reports where that contradicts what the schema declares
// (declaredEffects, without the override table). Exposes no torch types.
#pragma once

#include "declone/analysis/EffectOverrides.h"
#include "declone/schema/Schema.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace declone::runtime {

struct OverloadAudit {
  /// The op ran on at least one probe: its facts were compared with its schema.
  bool exercised = false;
  /// Why not: "no kernel in this libtorch", "no CPU kernel", "argument type Dimname", "every
  /// probe failed: <libtorch's message>". For an exercised op whose schema has no usable alias
  /// information (a wildcard) the effects are unknown anyway: "effects unknown by schema".
  std::string reason;
  /// Probes run to completion.
  unsigned runs = 0;
  /// Bit k: a probe of kind probeKinds()[k] ran to completion.
  uint32_t kindsReached = 0;
  /// What the schema does not say, as override-table entries whose origin is the first probe
  /// that showed it; sorted and without duplicates.
  std::vector<EffectOverride> lies;
};

struct AuditOptions {
  /// The same seed gives the same probes and inputs.
  uint64_t seed = 1;
  /// Probes not to run, by ordinal (the order in which the audit tries them): ones whose kernel
  /// crashed the process before. Kernels do not check every size (rrelu_with_noise_ writes
  /// `noise` as if it had its input's size), and the probes try mismatched ones.
  std::vector<unsigned> skip;
  /// Kinds of probe not to run (bit k: probeKinds()[k]; the base kind is never skipped): a
  /// kernel that crashes on one empty or overlapping input crashes on the others too, and the
  /// base probes still settle its effects.
  uint32_t skipKinds = 0;
  /// Called with each probe's ordinal and kind before it runs: a driver notes them, to skip
  /// the probe (or its kind) when the kernel crashes.
  std::function<void(unsigned ordinal, unsigned kind)> beforeProbe;
};

/// Audits `schema`, an overload of the built-in registry (SchemaRegistry::builtin()). Runs
/// kernels in this process: a kernel that crashes or hangs takes the caller with it, so drivers
/// run each overload in a child process. Turns off libtorch's error backtraces in the process.
[[nodiscard]] OverloadAudit auditOverload(const OpSchema& schema, const AuditOptions& options);

/// The kinds of probe, by bit of OverloadAudit::kindsReached: "base" (shapes, dtypes, contiguous,
/// transposed and offset layouts, bools and `p` varied), then what the audit tries beyond it
/// ("empty tensors", "size-1 dimensions", ...). A finding that only a later kind showed has
/// `[KIND] ` before its call in its origin.
[[nodiscard]] std::vector<std::string_view> probeKinds();

/// The version of the libtorch the audit runs, "2.13.0": the origin of what it finds.
[[nodiscard]] std::string libtorchVersion();

} // namespace declone::runtime
