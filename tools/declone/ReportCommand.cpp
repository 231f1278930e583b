// `declone report`: clone elimination over files and folders of dumps, one table for all.
#include "ArgumentParser.h"
#include "CloneFlags.h"
#include "Commands.h"
#include "Input.h"
#include "declone/report/Progress.h"
#include "declone/report/Report.h"
#include "declone/support/File.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <functional>
#include <iostream>
#include <mutex>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace declone::cli {
namespace {

/// A count option: digits only, at least `min`.
std::optional<size_t> parseCount(std::string_view option, const std::string& text, size_t min) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min) {
    reportUsageError(std::string(option) + " takes a number" + (min ? " of at least 1" : "") +
                     ", not '" + text + "'");
    return std::nullopt;
  }
  return value;
}

/// Set by the first Ctrl-C: no new file starts, and the table shows the files that finished.
std::atomic<bool> gInterrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
volatile std::sig_atomic_t gProgressOnTerminal = 0;

extern "C" void onInterrupt(int) {
  int savedErrno = errno;
  gInterrupted.store(true, std::memory_order_relaxed);
  // write() is async-signal-safe; the progress bar's line is cleared first so that the
  // message does not run into it.
  static const char kClear[] = "\r\033[K";
  static const char kMessage[] = "declone report: interrupted; finishing the files in progress "
                                 "(Ctrl-C again to stop at once)\n";
  if (gProgressOnTerminal)
    (void)!::write(STDERR_FILENO, kClear, sizeof kClear - 1);
  (void)!::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  errno = savedErrno;
}

/// Ctrl-C while the report runs stops starting files instead of killing the program; the
/// handler resets itself (SA_RESETHAND), so a second Ctrl-C ends the program as usual. Only
/// over the default action: a SIGINT the caller ignores (a job run in the background) stays
/// ignored. SA_RESTART: reads and writes interrupted by it carry on.
class InterruptScope {
public:
  InterruptScope() {
    struct sigaction current = {};
    if (::sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler != SIG_DFL)
      return;
    struct sigaction handler = {};
    handler.sa_handler = onInterrupt;
    handler.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&handler.sa_mask);
    installed_ = ::sigaction(SIGINT, &handler, nullptr) == 0;
  }
  ~InterruptScope() { // back to the default action, whether or not the handler ran
    if (installed_)
      ::signal(SIGINT, SIG_DFL);
  }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

private:
  bool installed_ = false;
};

/// How the report's inputs are run: on `jobs` threads (0: one per core), calling `progress`
/// after each file with (files done, files in all), from the threads but never from two at
/// once; once `stop` is set, no further file starts.
struct Pool {
  unsigned jobs = 0;
  std::function<void(size_t, size_t)> progress;
  const std::atomic<bool>* stop = nullptr;
};

/// reportInput on every input on the pool's threads, largest files first; the files already
/// running when `stop` is set finish, and the report holds those that did.
Report runOnPool(std::span<const DumpInput> inputs, const ReportOptions& options,
                 const Pool& pool) {
  const size_t count = inputs.size();
  const std::vector<size_t> order = reportOrder(inputs);
  std::vector<std::optional<std::vector<DumpStats>>> results(count);
  std::atomic<size_t> next{0};
  std::mutex progressMutex;
  size_t done = 0;
  auto stopped = [&] { return pool.stop && pool.stop->load(std::memory_order_relaxed); };
  auto work = [&] {
    for (size_t k; !stopped() && (k = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      std::vector<DumpStats> rows = reportInput(inputs[order[k]], options);
      std::lock_guard lock(progressMutex);
      results[order[k]] = std::move(rows);
      ++done;
      if (pool.progress)
        pool.progress(done, count);
    }
  };
  unsigned jobs = pool.jobs ? pool.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::clamp<size_t>(count, 1, jobs)); // 1 when there are no files
  {
    // The caller is one of the jobs. Where the system refuses more threads (a process limit),
    // the jobs that did start share the files.
    std::vector<std::jthread> threads;
    threads.reserve(jobs - 1);
    for (unsigned i = 1; i < jobs; ++i) {
      try {
        threads.emplace_back(work);
      } catch (const std::system_error&) {
        break;
      }
    }
    work();
  } // the jthreads join here
  return assembleReport(inputs, std::move(results));
}

} // namespace

int runReport(std::span<const std::string_view> args) {
  std::vector<std::string> paths;
  std::string sort, top, jobs;
  bool json = false, quiet = false;
  CloneFlags flags;
  ArgumentParser parser(
      "report",
      "Run clone elimination on every graph dump in the given files and folders (recursively:\n"
      "*.py, *.fx, *.txt graph text and *.log TORCH_TRACE logs, one row per graph record) and\n"
      "print one table. Files are processed in parallel. Exit status 2 when some input could not\n"
      "be read or parsed (its row says why); the others are still reported. Files that are\n"
      "not graph dumps are skipped and counted. Ctrl-C stops starting files and prints the\n"
      "table of those that finished (exit status 130).");
  parser.positional("PATH", "a graph file, a structured trace log or a folder", &paths, 1,
                    SIZE_MAX);
  parser.flag("--json", "write the table as JSON", &json);
  parser.option("--sort", "COL",
                "order rows by COL, numbers largest first: file, graphs, nodes, clones,\n"
                "                          removed, kept, a reason code, bytes, symbolic or error",
                &sort);
  parser.option("--top", "N", "show only the first N rows (the total still counts all)", &top);
  flags.addTo(parser, /*withDonated=*/false);
  DumpFilter filter;
  parser.repeated("--include", "GLOB",
                  "only files whose path or name matches GLOB (may be repeated)", &filter.include);
  parser.repeated("--exclude", "GLOB",
                  "leave out files whose path or name matches GLOB (may be repeated)",
                  &filter.exclude);
  parser.option("-j|--jobs", "N", "threads to use (default: one per core)", &jobs);
  parser.flag("-q|--quiet", "no progress on standard error", &quiet);
  if (std::optional<int> exit = parser.parseOrExit(args))
    return *exit;
  if (!flags.prepare())
    return kBadInput;

  ReportOptions options;
  options.pass = flags.baseOptions();
  options.read = inputSizeLimit();
  Pool pool;
  TableOptions table;
  if (!top.empty()) {
    std::optional<size_t> count = parseCount("--top", top, 1);
    if (!count)
      return kBadInput;
    table.top = *count;
  }
  if (!jobs.empty()) {
    std::optional<size_t> count = parseCount("--jobs", jobs, 1);
    if (!count)
      return kBadInput;
    pool.jobs = static_cast<unsigned>(std::min<size_t>(*count, 1024));
  }
  // Check --sort before the work, not after it.
  std::vector<DumpStats> probe;
  if (!sort.empty()) {
    if (Status sorted = sortRows(probe, sort); !sorted.ok()) {
      reportUsageError(sorted.error().message);
      return kBadInput;
    }
  }

  std::vector<DumpInput> inputs = collectDumpInputs(paths, filter);
  std::optional<ProgressMeter> progress;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  if (!quiet && !inputs.empty()) {
    progress.emplace(std::cerr, terminal, "report");
    pool.progress = [&](size_t done, size_t total) { progress->update(done, total); };
    gProgressOnTerminal = terminal ? 1 : 0;
  }
  pool.stop = &gInterrupted;
  Report report;
  {
    InterruptScope interrupts;
    report = runOnPool(inputs, options, pool);
  }
  if (progress)
    progress->finish();
  if (inputs.empty())
    reportUsageWarning("no graph dumps (*.py, *.fx, *.txt, *.log) found");
  for (const std::string& path : report.skippedNamed)
    reportUsageWarning(path + ": not a graph dump (no graph module or 'def forward'), skipped");
  if (!sort.empty())
    (void)sortRows(report.rows, sort); // the column was checked above

  std::string out = json ? formatReportJson(report, table) : formatReportTable(report, table);
  if (Status written = writeFileAtomically("", out); !written.ok()) {
    reportUsageError(written.error().message);
    return kBadInput;
  }
  if (report.notRun)
    return 128 + SIGINT; // as if the signal had ended it, the shells' convention
  return report.failed ? kBadInput : kSuccess;
}

} // namespace declone::cli
