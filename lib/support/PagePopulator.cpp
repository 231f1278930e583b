// Makes fresh anonymous memory resident on a background thread, ahead of its first write.
#include "declone/support/PagePopulator.h"

#include "declone/support/HugePages.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <sys/mman.h>
#include <system_error>
#include <thread>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older headers lack the name, older kernels the advice
#endif

namespace declone {

struct PagePopulator::State {
  struct Request {
    const void* owner;
    void* data;
    size_t size;
  };

  std::mutex mutex;
  std::condition_variable wake;   ///< a request arrived
  std::condition_variable served; ///< the request being served is done
  std::deque<Request> pending;
  const void* serving = nullptr; ///< owner of the request being served, if any
  /// cancel() asks the request being served to stop at its next huge page.
  std::atomic<bool> stopServing = false;
  bool started = false;
  /// The kernel refused the advice, or no thread could start: requests are dropped from then on.
  bool unsupported = false;
  size_t populated = 0; ///< bytes of the requests served whole
  size_t failed = 0;    ///< requests the kernel failed for another reason than EINVAL

  void serve() {
    std::unique_lock lock(mutex);
    for (;;) {
      wake.wait(lock, [&] { return !pending.empty(); });
      Request next = pending.front();
      pending.pop_front();
      serving = next.owner;
      stopServing = false;
      lock.unlock();
      int error = populateBackwards(next.data, next.size);
      lock.lock();
      serving = nullptr;
      if (error == 0)
        populated += next.size;
      else if (error == EINVAL) {
        unsupported = true;
        pending.clear();
      } else if (error != ECANCELED) {
        ++failed;
      }
      served.notify_all();
    }
  }

  /// Populates [data, data + size) a huge page at a time from its end: an owner that starts
  /// writing at the beginning as soon as it has asked (a buffer being read into) then meets the
  /// populator in the middle instead of racing it over the same pages. Returns 0, madvise's
  /// errno, or ECANCELED when cancel() stopped it.
  int populateBackwards(void* data, size_t size) {
    auto begin = reinterpret_cast<uintptr_t>(data);
    uintptr_t end = begin + size;
    while (end > begin) {
      if (stopServing.load(std::memory_order_relaxed))
        return ECANCELED;
      // Steps start on huge-page boundaries (madvise needs page-aligned starts; begin is one).
      uintptr_t start = std::max(begin, (end - 1) & ~(kHugePage - 1));
      if (::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE) != 0)
        return errno;
      end = start;
    }
    return 0;
  }
};

namespace {

PagePopulator* theInstance = nullptr; ///< for the fork handler, which must not wait on statics

} // namespace

PagePopulator::PagePopulator() : state_(new State) {}

PagePopulator& PagePopulator::instance() {
  // Never destroyed: the thread may be inside madvise when static destructors run at exit.
  static PagePopulator* populator = [] {
    theInstance = new PagePopulator;
    // A forked child has no populator thread, and the parent's may have held the lock or been
    // serving a request at the fork: the child starts over with a state of its own (the old one
    // is left as it was, never touched again). PyTorch forks DataLoader workers after passes.
    ::pthread_atfork(nullptr, nullptr, [] { theInstance->state_ = new State; });
    return theInstance;
  }();
  return *populator;
}

void PagePopulator::request(const void* owner, void* data, size_t size) {
  if (size == 0)
    return;
  std::lock_guard lock(state_->mutex);
  if (state_->unsupported)
    return;
  if (!state_->started) {
    // A thread that cannot start leaves the owner to fault its pages in itself.
    try {
      std::thread([state = state_] { state->serve(); }).detach();
    } catch (const std::system_error&) {
      state_->unsupported = true;
      return;
    }
    state_->started = true;
  }
  state_->pending.push_back(State::Request{owner, data, size});
  state_->wake.notify_one();
}

void PagePopulator::cancel(const void* owner) {
  std::unique_lock lock(state_->mutex);
  std::erase_if(state_->pending,
                [&](const State::Request& request) { return request.owner == owner; });
  if (state_->serving == owner)
    state_->stopServing = true;
  state_->served.wait(lock, [&] { return state_->serving != owner; });
}

size_t PagePopulator::populatedBytes() const {
  std::lock_guard lock(state_->mutex);
  return state_->populated;
}

size_t PagePopulator::failedRequests() const {
  std::lock_guard lock(state_->mutex);
  return state_->failed;
}

} // namespace declone
