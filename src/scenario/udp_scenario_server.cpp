#include "dereth/scenario/udp_scenario_server.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include <asio.hpp>
#include <fmt/format.h>

#include "dereth/core/log.hpp"

namespace dereth::scenario {

namespace {

using asio::ip::udp;

Endpoint to_endpoint(const udp::endpoint& e) {
  return Endpoint{e.address().is_v4() ? e.address().to_v4().to_uint() : 0U, e.port()};
}

udp::endpoint to_asio(const Endpoint& e) {
  return udp::endpoint(asio::ip::address_v4(e.address), e.port);
}

}  // namespace

struct UdpScenarioServer::Impl {
  Impl(Scenario scenario, UdpServerOptions opts) : options(opts), core(std::move(scenario), opts.server) {}

  UdpServerOptions options;
  mutable std::mutex mutex;  // guards core
  ScenarioServer core;

  asio::io_context io;
  std::array<udp::socket, 2> sockets{udp::socket(io), udp::socket(io)};
  asio::steady_timer timer{io};
  std::array<std::array<std::uint8_t, 2048>, 2> buffers{};
  std::array<udp::endpoint, 2> senders;
  std::thread thread;
  std::atomic<bool> started{false};
  std::atomic<bool> stopping{false};
  std::atomic<bool> muted{false};
  std::uint16_t port = 0;
  std::chrono::steady_clock::time_point epoch = std::chrono::steady_clock::now();

  [[nodiscard]] double now() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch).count();
  }

  bool bind_pair(std::uint16_t n, asio::error_code& ec) {
    const auto loopback = asio::ip::address_v4::loopback();
    for (auto& s : sockets) {
      if (s.is_open()) s.close(ec);
    }
    for (int i = 0; i < 2; ++i) {
      auto& s = sockets[static_cast<std::size_t>(i)];
      s.open(udp::v4(), ec);
      if (ec) return false;
      s.bind(udp::endpoint(loopback, static_cast<std::uint16_t>(n + i)), ec);
      if (ec) {
        for (auto& t : sockets) {
          asio::error_code ignored;
          if (t.is_open()) t.close(ignored);
        }
        return false;
      }
    }
    return true;
  }

  // Sends what the core has ready; called on the io thread with the lock held.
  void send_ready() {
    for (auto& d : core.take_outgoing()) {
      auto& s = sockets[d.local_port == 1 && !options.single_port ? 1 : 0];
      asio::error_code ec;
      s.send_to(asio::buffer(d.bytes), to_asio(d.peer), 0, ec);
      if (ec) core::logger(core::Module::Scenario)->debug("send to {} failed: {}", to_string(d.peer), ec.message());
    }
  }

  void receive(int index) {
    auto& s = sockets[static_cast<std::size_t>(index)];
    auto& buf = buffers[static_cast<std::size_t>(index)];
    s.async_receive_from(asio::buffer(buf), senders[static_cast<std::size_t>(index)],
                         [this, index](const asio::error_code& ec, std::size_t n) {
                           if (stopping) return;
                           if (!ec && !muted) {
                             std::lock_guard lock(mutex);
                             const auto& b = buffers[static_cast<std::size_t>(index)];
                             core.receive(std::span<const std::uint8_t>(b.data(), n),
                                          to_endpoint(senders[static_cast<std::size_t>(index)]), index, now());
                             send_ready();
                           } else if (ec == asio::error::operation_aborted) {
                             return;
                           }
                           receive(index);
                         });
  }

  void arm_timer() {
    timer.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(options.tick_interval)));
    timer.async_wait([this](const asio::error_code& ec) {
      if (ec || stopping) return;
      if (!muted) {
        std::lock_guard lock(mutex);
        core.tick(now());
        send_ready();
      }
      arm_timer();
    });
  }
};

UdpScenarioServer::UdpScenarioServer(Scenario scenario, UdpServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(scenario), options)) {}

UdpScenarioServer::~UdpScenarioServer() {
  stop();
}

core::Result<void> UdpScenarioServer::start() {
  Impl& m = *impl_;
  if (m.started)
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "scenario server", "", 0, "already started"});
  asio::error_code ec;
  if (m.options.port != 0) {
    if (m.options.port == 0xFFFF || !m.bind_pair(m.options.port, ec)) {
      return std::unexpected(core::Error{
          core::ErrorKind::Io, "scenario server", "", 0,
          fmt::format("cannot bind 127.0.0.1 ports {} and {}: {}", m.options.port, m.options.port + 1, ec.message())});
    }
    m.port = m.options.port;
  } else {
    std::mt19937 pick(std::random_device{}());
    std::uniform_int_distribution<int> range(20000, 59999);
    bool bound = false;
    for (int attempt = 0; attempt < 200 && !bound; ++attempt) {
      const auto n = static_cast<std::uint16_t>(range(pick));
      if (m.bind_pair(n, ec)) {
        m.port = n;
        bound = true;
      }
    }
    if (!bound) {
      return std::unexpected(
          core::Error{core::ErrorKind::Io, "scenario server", "", 0, "no free pair of loopback ports found"});
    }
  }
  m.epoch = std::chrono::steady_clock::now();
  m.stopping = false;
  m.io.restart();
  m.receive(0);
  m.receive(1);
  m.arm_timer();
  m.started = true;
  m.thread = std::thread([&m] { m.io.run(); });
  core::logger(core::Module::Scenario)
      ->info("scenario '{}' listening on 127.0.0.1:{} and :{}", m.core.scenario().name, m.port, m.port + 1);
  return {};
}

void UdpScenarioServer::stop() {
  Impl& m = *impl_;
  if (!m.started) return;
  m.stopping = true;
  asio::post(m.io, [&m] {
    asio::error_code ignored;
    m.timer.cancel();
    for (auto& s : m.sockets) {
      if (s.is_open()) s.close(ignored);
    }
  });
  if (m.thread.joinable()) m.thread.join();
  m.started = false;
}

bool UdpScenarioServer::running() const noexcept {
  return impl_->started;
}

std::uint16_t UdpScenarioServer::port() const noexcept {
  return impl_->port;
}

std::vector<ClientMessage> UdpScenarioServer::client_messages() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->core.client_messages();
}

std::vector<SentMessage> UdpScenarioServer::sent_messages() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->core.sent_messages();
}

std::vector<ServerEvent> UdpScenarioServer::events() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->core.events();
}

std::vector<SessionInfo> UdpScenarioServer::sessions() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->core.sessions();
}

ServerStats UdpScenarioServer::stats() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->core.stats();
}

void UdpScenarioServer::send_raw(int local_port, const Endpoint& to, std::vector<std::uint8_t> bytes) {
  Impl& m = *impl_;
  if (!m.started) return;
  asio::post(m.io, [&m, local_port, to, bytes = std::move(bytes)] {
    auto& s = m.sockets[local_port == 1 ? 1 : 0];
    asio::error_code ec;
    if (s.is_open()) s.send_to(asio::buffer(bytes), to_asio(to), 0, ec);
  });
}

void UdpScenarioServer::mute(bool muted) {
  impl_->muted = muted;
}

void UdpScenarioServer::inspect(const std::function<void(const ScenarioServer&)>& f) const {
  std::lock_guard lock(impl_->mutex);
  f(impl_->core);
}

}  // namespace dereth::scenario
