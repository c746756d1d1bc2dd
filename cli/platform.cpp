#include "platform.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "failure.hpp"

#ifdef __linux__
#include <sys/prctl.h>
#include <sys/signalfd.h>
#else
#include <sys/select.h>

#include "pipe.hpp"
#endif

namespace dlock_cli::platform {
namespace {

[[noreturn]] void fail_with_errno(const std::string& call) {
  throw Failure(exit_code::internal, call + ": " + std::strerror(errno));
}

void block(const sigset_t& signals, sigset_t* previous_mask) {
  if (pthread_sigmask(SIG_BLOCK, &signals, previous_mask) != 0) {
    throw Failure(exit_code::internal, "cannot block signals");
  }
}

}  // namespace

#ifdef __linux__

struct SignalInbox::State {
  int fd = -1;  // a signalfd
};

SignalInbox::SignalInbox(const sigset_t& signals) : state_(std::make_unique<State>()) {
  block(signals, nullptr);
  state_->fd = signalfd(-1, &signals, SFD_CLOEXEC | SFD_NONBLOCK);
  if (state_->fd < 0) fail_with_errno("signalfd");
}

SignalInbox::~SignalInbox() { close(state_->fd); }

bool SignalInbox::wait(int other_fd, int timeout_ms) {
  pollfd fds[2] = {{state_->fd, POLLIN, 0}, {other_fd, POLLIN, 0}};
  const int ready = poll(fds, 2, timeout_ms);
  if (ready < 0 && errno != EINTR) fail_with_errno("poll");
  return ready > 0 && (fds[1].revents & POLLIN);
}

ReceivedSignal SignalInbox::take() {
  signalfd_siginfo info;
  ReceivedSignal received;
  if (read(state_->fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    received.number = static_cast<int>(info.ssi_signo);
    // The terminal driver signals the whole foreground process group with
    // SI_KERNEL: the command has received that signal too.
    received.from_terminal = info.ssi_code == SI_KERNEL;
  }
  return received;
}

bool die_with_parent(pid_t parent) {
  // The signal comes when the thread that forked the child ends: dlock forks
  // from its main thread, which lives as long as dlock does.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return false;
  // The parent may have ended before the call, leaving the child re-parented
  // and no signal to come.
  return getppid() == parent;
}

#else

namespace {

// The self-pipe's write end, for the handler: one inbox per process.
int self_pipe_write_end = -1;
constexpr unsigned char sent_by_terminal_bit = 0x80;

// Writes one byte: the signal's number, with the high bit set when no process
// sent it (the terminal signals the whole foreground group, COMMAND included).
void on_signal(int number, siginfo_t* info, void*) {
  const int saved_errno = errno;
  const bool sent_by_process = info->si_code == SI_USER || info->si_code == SI_QUEUE || info->si_pid != 0;
  const unsigned char byte = static_cast<unsigned char>(number) | (sent_by_process ? 0 : sent_by_terminal_bit);
  (void)!write(self_pipe_write_end, &byte, 1);
  errno = saved_errno;
}

}  // namespace

struct SignalInbox::State {
  sigset_t signals;
  sigset_t wait_mask;  // the thread's mask with `signals` let through
  Pipe self_pipe{Pipe::Mode::nonblocking};
};

SignalInbox::SignalInbox(const sigset_t& signals) : state_(std::make_unique<State>()) {
  state_->signals = signals;
  block(signals, &state_->wait_mask);
  self_pipe_write_end = state_->self_pipe.write_end();
  struct sigaction action = {};
  action.sa_sigaction = on_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&action.sa_mask);
  for (int number = 1; number < NSIG; ++number) {
    if (sigismember(&signals, number) != 1) continue;
    sigdelset(&state_->wait_mask, number);
    if (sigaction(number, &action, nullptr) != 0) fail_with_errno("sigaction");
  }
}

SignalInbox::~SignalInbox() {
  struct sigaction default_action = {};
  default_action.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; ++number) {
    if (sigismember(&state_->signals, number) == 1) sigaction(number, &default_action, nullptr);
  }
  self_pipe_write_end = -1;
}

bool SignalInbox::wait(int other_fd, int timeout_ms) {
  const int own_fd = state_->self_pipe.read_end();
  fd_set readable;
  FD_ZERO(&readable);
  FD_SET(own_fd, &readable);
  FD_SET(other_fd, &readable);
  timespec timeout = {timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000};
  // The signals' handlers run only here, where pselect lets them through.
  const int ready = pselect(std::max(own_fd, other_fd) + 1, &readable, nullptr, nullptr,
                            timeout_ms < 0 ? nullptr : &timeout, &state_->wait_mask);
  if (ready < 0 && errno != EINTR) fail_with_errno("pselect");
  return ready > 0 && FD_ISSET(other_fd, &readable);
}

ReceivedSignal SignalInbox::take() {
  unsigned char byte = 0;
  ReceivedSignal received;
  if (read(state_->self_pipe.read_end(), &byte, 1) == 1) {
    received.number = byte & ~sent_by_terminal_bit;
    received.from_terminal = (byte & sent_by_terminal_bit) != 0;
  }
  return received;
}

bool die_with_parent(pid_t) { return true; }

#endif

}  // namespace dlock_cli::platform
