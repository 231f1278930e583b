// Makes fresh anonymous memory resident on a background thread, ahead of its first write.
#pragma once

#include <cstddef>

namespace declone {

/// Reading a million-node graph writes some 300 MB of fresh arena memory, and the kernel zeroes
/// every page of it on first touch: on this project's 2-core machines that was 20-50% of
/// `declone opt`'s time, all of it on the core doing the work while the other one idled. The
/// populator asks the kernel (MADV_POPULATE_WRITE) to fault pages in on its own thread, so the
/// zeroing overlaps the work. Population never changes memory's contents, so a range may be
/// written by its owner while it is being populated.
class PagePopulator {
public:
  /// The process's populator. Its thread starts with the first request and is never joined: it
  /// sleeps while nothing is asked of it, and the process may exit at any time.
  static PagePopulator& instance();

  /// Asks for [data, data + size) of `owner`'s private anonymous memory to be faulted in, from
  /// its end backwards; `data` must be page-aligned. Where the kernel cannot do it (before Linux
  /// 5.14) or no thread can start, requests are dropped: the owner's own writes fault the pages
  /// in as they always did.
  void request(const void* owner, void* data, size_t size);
  /// Drops `owner`'s pending requests and stops the one being served, if it is `owner`'s, at its
  /// next huge page; returns once the populator no longer touches `owner`'s memory. Owners call
  /// this before they unmap memory they asked for.
  void cancel(const void* owner);

  /// Bytes of the requests served whole so far, pages that were already resident included (for
  /// tests and statistics).
  [[nodiscard]] size_t populatedBytes() const;
  /// Requests the kernel failed for a reason other than not knowing the advice: memory that was
  /// unmapped under the populator would show here (for tests).
  [[nodiscard]] size_t failedRequests() const;

  PagePopulator(const PagePopulator&) = delete;
  PagePopulator& operator=(const PagePopulator&) = delete;

private:
  PagePopulator();
  ~PagePopulator() = delete; // leaked on purpose: see instance()
  struct State;
  State* state_;
};

} // namespace declone
