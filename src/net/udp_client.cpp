#include "dereth/net/udp_client.hpp"

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include <asio.hpp>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "dereth/core/clock.hpp"
#include "dereth/core/log.hpp"
#include "dereth/net/pcap_recorder.hpp"

namespace dereth::net {

namespace {
// The queues between this thread and the main thread are bounded; what they
// drop is counted (TransportStats::queue_overflow).
constexpr std::size_t kMaxInbox = 65536;  // messages received, not yet drained
constexpr std::size_t kMaxOutbox = 4096;  // messages queued to send, not yet taken
double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}
}  // namespace

struct UdpClient::Impl {
  asio::io_context io;
  asio::ip::udp::socket socket{io};
  asio::steady_timer timer{io};
  asio::ip::udp::endpoint server_n;
  asio::ip::udp::endpoint server_n1;
  asio::ip::udp::endpoint sender;
  // The address and port the server sees this client at (the socket is bound
  // to 0.0.0.0; a recording names the real address).
  asio::ip::udp::endpoint local;
  std::array<std::uint8_t, 2048> buffer{};
  core::RealClock clock;
  ClientSession session;
  std::optional<PcapRecorder> recorder;
  std::filesystem::path recording;  // set once in connect()
  std::thread thread;

  mutable std::mutex mutex;  // guards the fields below
  std::vector<SessionMessage> inbox;
  std::vector<std::pair<std::vector<std::uint8_t>, std::uint16_t>> outbox;
  UdpClientStatus status;
  std::uint64_t queue_overflow = 0;
  int creates_posted = 0;               // create_character calls the network thread has not run yet
  std::uint64_t foreign_datagrams = 0;  // the socket thread's alone

  explicit Impl(SessionConfig config) : session(std::move(config)) {}

  double now() const { return clock.now().count(); }

  // A recording is IPv4 (net/pcap_recorder.hpp): an IPv6 session is written
  // as if on 127.0.0.1, the ports kept, so the capture tools still read it.
  Ipv4Endpoint to_ipv4(const asio::ip::udp::endpoint& e) const {
    return Ipv4Endpoint{e.address().is_v4() ? e.address().to_v4().to_uint() : 0x7F000001U, e.port()};
  }

  void record(std::span<const std::uint8_t> bytes, const asio::ip::udp::endpoint& from,
              const asio::ip::udp::endpoint& to) {
    if (!recorder) return;
    if (auto r = recorder->record(bytes, to_ipv4(from), to_ipv4(to), unix_now()); !r) {
      core::logger(core::Module::Net)->error("recording stopped: {}", r.error().message());
      recorder.reset();
    }
  }

  void flush() {
    {
      std::lock_guard lock(mutex);
      for (auto& [message, queue] : outbox) session.send_message(message, queue);
      outbox.clear();
    }
    for (auto& d : session.take_outgoing()) {
      const auto& to = d.port_offset == 0 ? server_n : server_n1;
      record(d.recorded_bytes(), local, to);
      std::error_code ec;
      socket.send_to(asio::buffer(d.bytes), to, 0, ec);
      if (ec) core::logger(core::Module::Net)->warn("send failed: {}", ec.message());
    }
    std::lock_guard lock(mutex);
    while (auto m = session.poll_message()) {
      if (inbox.size() >= kMaxInbox) {
        ++queue_overflow;
        continue;
      }
      inbox.push_back(std::move(*m));
    }
    status.state = session.state();
    status.failure = session.failure();
    status.player_guid = session.player_guid();
    if (session.characters() && status.characters_revision != session.characters_revision()) {
      status.characters = session.characters();
      status.characters_revision = session.characters_revision();
    }
    status.awaiting_choice = session.awaiting_choice();
    // A creation asked for but not yet handed to the session is pending,
    // and the session's answer to an earlier one is not this one's.
    status.creating = session.creating() || creates_posted > 0;
    status.create_response = creates_posted > 0 ? std::nullopt : session.create_response();
    status.world_name = session.world_name();
    status.transport = session.transport().stats();
    status.transport.echo_round_trip = session.transport().echo_round_trip();
    status.time_sync = session.transport().last_time_sync();
    status.transport.handshake_dropped = session.handshake_dropped();
    status.transport.foreign_datagrams = foreign_datagrams;
    status.transport.queue_overflow = queue_overflow;
  }

  // An ICMP error queued on the socket (IP_RECVERR): a port-unreachable for
  // a datagram that went to one of the server's ports ends the session.
  void read_icmp_errors() {
    const bool v6 = server_n.address().is_v6();
    for (int i = 0; i < 16; ++i) {
      sockaddr_storage original{};
      std::array<char, 512> control{};
      std::array<std::uint8_t, 64> data{};
      iovec vec{data.data(), data.size()};
      msghdr m{};
      m.msg_name = &original;
      m.msg_namelen = sizeof(original);
      m.msg_iov = &vec;
      m.msg_iovlen = 1;
      m.msg_control = control.data();
      m.msg_controllen = control.size();
      if (::recvmsg(socket.native_handle(), &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) return;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c != nullptr; c = CMSG_NXTHDR(&m, c)) {
        const bool ours = v6 ? c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR
                             : c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR;
        if (!ours) continue;
        sock_extended_err e{};
        std::memcpy(&e, CMSG_DATA(c), sizeof(e));
        // ICMP destination unreachable 3 / port 3; ICMPv6 destination unreachable 1 / port 4.
        const bool unreachable = v6 ? e.ee_origin == SO_EE_ORIGIN_ICMP6 && e.ee_type == 1 && e.ee_code == 4
                                    : e.ee_origin == SO_EE_ORIGIN_ICMP && e.ee_type == 3 && e.ee_code == 3;
        if (!unreachable) continue;
        asio::ip::address address;
        std::uint16_t port = 0;
        if (original.ss_family == AF_INET6) {
          sockaddr_in6 a6{};
          std::memcpy(&a6, &original, sizeof(a6));
          asio::ip::address_v6::bytes_type bytes{};
          std::memcpy(bytes.data(), &a6.sin6_addr, bytes.size());
          address = asio::ip::address_v6(bytes, a6.sin6_scope_id);
          port = ntohs(a6.sin6_port);
        } else if (original.ss_family == AF_INET) {
          sockaddr_in a4{};
          std::memcpy(&a4, &original, sizeof(a4));
          address = asio::ip::address_v4(ntohl(a4.sin_addr.s_addr));
          port = ntohs(a4.sin_port);
        } else {
          continue;
        }
        if (address != server_n.address()) continue;
        if (port == server_n.port() || port == server_n1.port()) {
          session.port_unreachable(port, now());
          flush();
        }
      }
    }
  }

  void receive_loop() {
    socket.async_receive_from(asio::buffer(buffer), sender, [this](std::error_code ec, std::size_t n) {
      if (ec == asio::error::operation_aborted) return;
      if (ec == asio::error::connection_refused) read_icmp_errors();
      if (!ec) {
        const std::span<const std::uint8_t> bytes(buffer.data(), n);
        if (sender.address() == server_n.address() &&
            (sender.port() == server_n.port() || sender.port() == server_n1.port())) {
          record(bytes, sender, local);
          session.receive(bytes, sender.port() == server_n.port() ? 0 : 1, now());
          flush();
        } else {
          ++foreign_datagrams;
        }
      }
      receive_loop();
    });
  }

  void tick_loop() {
    timer.expires_after(std::chrono::milliseconds(10));
    timer.async_wait([this](std::error_code ec) {
      if (ec) return;
      session.tick(now());
      flush();
      const auto s = session.state();
      if (s == SessionState::Failed || s == SessionState::Closed) {
        socket.close();
        return;
      }
      tick_loop();
    });
  }
};

UdpClient::UdpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

core::Result<std::unique_ptr<UdpClient>> UdpClient::connect(UdpClientOptions options) {
  auto impl = std::make_unique<Impl>(options.session);
  std::error_code ec;
  asio::ip::udp::resolver resolver(impl->io);
  // An IPv6 literal may come in its URL brackets ("[::1]"); the resolver takes it bare.
  std::string host = options.host;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  auto results = resolver.resolve(host, std::to_string(options.port), ec);
  if (ec || results.empty()) {
    return std::unexpected(
        core::Error{core::ErrorKind::Io, options.host, "host", 0, ec ? ec.message() : std::string("no address")});
  }
  // IPv4 first where a name has both (servers listen on IPv4 far more
  // often); an IPv6 address ("::1") when that is all there is.
  impl->server_n = *results.begin();
  for (const auto& r : results) {
    if (r.endpoint().address().is_v4()) {
      impl->server_n = r.endpoint();
      break;
    }
  }
  const auto protocol = impl->server_n.protocol();
  const bool v6 = impl->server_n.address().is_v6();
  impl->server_n1 = asio::ip::udp::endpoint(impl->server_n.address(), static_cast<std::uint16_t>(options.port + 1));
  impl->socket.open(protocol, ec);
  if (!ec) impl->socket.bind(asio::ip::udp::endpoint(protocol, 0), ec);
  if (ec) return std::unexpected(core::Error{core::ErrorKind::Io, "UDP socket", "", 0, ec.message()});
  {
    // ICMP errors (a server that is gone answers with port-unreachable) reach
    // an unconnected socket only through the error queue.
    const int on = 1;
    if (v6) {
      ::setsockopt(impl->socket.native_handle(), SOL_IPV6, IPV6_RECVERR, &on, sizeof(on));
    } else {
      ::setsockopt(impl->socket.native_handle(), SOL_IP, IP_RECVERR, &on, sizeof(on));
    }
  }
  {
    // The source address the system picks toward the server (a connected
    // probe socket sends nothing).
    asio::ip::udp::socket probe(impl->io);
    std::error_code probe_ec;
    probe.open(protocol, probe_ec);
    if (!probe_ec) probe.connect(impl->server_n, probe_ec);
    const auto address = !probe_ec ? probe.local_endpoint(probe_ec).address() : asio::ip::address{};
    const asio::ip::address loopback =
        v6 ? asio::ip::address(asio::ip::address_v6::loopback()) : asio::ip::address(asio::ip::address_v4::loopback());
    impl->local = asio::ip::udp::endpoint(!probe_ec ? address : loopback, impl->socket.local_endpoint().port());
  }
  if (options.record_to) {
    auto rec = PcapRecorder::create(*options.record_to);
    if (!rec) return std::unexpected(rec.error());
    impl->recording = rec->path();
    impl->recorder.emplace(std::move(*rec));
  }
  Impl* s = impl.get();
  asio::post(s->io, [s] {
    s->session.start(s->now());
    s->flush();
    s->receive_loop();
    s->tick_loop();
  });
  s->thread = std::thread([s] { s->io.run(); });
  return std::unique_ptr<UdpClient>(new UdpClient(std::move(impl)));
}

UdpClient::~UdpClient() {
  stop();
}

const std::filesystem::path& UdpClient::recording() const noexcept {
  return impl_->recording;
}

std::vector<SessionMessage> UdpClient::drain_messages() {
  std::lock_guard lock(impl_->mutex);
  std::vector<SessionMessage> out;
  out.swap(impl_->inbox);
  return out;
}

void UdpClient::send_message(std::vector<std::uint8_t> message, std::uint16_t queue) {
  std::lock_guard lock(impl_->mutex);
  if (impl_->outbox.size() >= kMaxOutbox) {
    ++impl_->queue_overflow;
    return;
  }
  impl_->outbox.emplace_back(std::move(message), queue);
}

std::uint32_t UdpClient::next_action_sequence() noexcept {
  return impl_->session.next_action_sequence();
}

UdpClientStatus UdpClient::status() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->status;
}

void UdpClient::choose_character(std::uint32_t guid) {
  Impl* s = impl_.get();
  if (!s->thread.joinable()) return;
  asio::post(s->io, [s, guid] {
    s->session.choose_character(guid);
    s->flush();
  });
}

void UdpClient::create_character(protocol::CharacterCreate m) {
  Impl* s = impl_.get();
  if (!s->thread.joinable()) return;
  {
    // Shown as pending at once, so a caller polling status() never sees the
    // old answer as this one's.
    std::lock_guard lock(s->mutex);
    s->status.creating = true;
    s->status.create_response.reset();
    ++s->creates_posted;
  }
  asio::post(s->io, [s, m = std::move(m)]() mutable {
    s->session.create_character(std::move(m));
    {
      std::lock_guard lock(s->mutex);
      --s->creates_posted;
    }
    s->flush();
  });
}

void UdpClient::delete_character(std::uint32_t guid) {
  Impl* s = impl_.get();
  if (!s->thread.joinable()) return;
  asio::post(s->io, [s, guid] {
    s->session.delete_character(guid);
    s->flush();
  });
}

void UdpClient::logout() {
  Impl* s = impl_.get();
  if (!s->thread.joinable()) return;
  asio::post(s->io, [s] {
    s->session.logout(s->now());
    s->flush();
  });
  stop();
}

void UdpClient::stop() {
  Impl* s = impl_.get();
  if (!s || !s->thread.joinable()) return;
  asio::post(s->io, [s] {
    std::error_code ec;
    s->timer.cancel();
    s->socket.close(ec);
    s->io.stop();
  });
  s->thread.join();
}

}  // namespace dereth::net
