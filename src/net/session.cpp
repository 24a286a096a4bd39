#include "dereth/net/session.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dereth/protocol/messages.hpp"

namespace dereth::net {

namespace lo = protocol::login_opcode;
namespace po = protocol::opcode;

// How long ACE keeps a deleted character greyed out (an hour); the server's
// next character list gives the real figure.
constexpr std::uint32_t kDeletionSeconds = 3600;

const char* to_string(SessionState s) noexcept {
  switch (s) {
    case SessionState::Idle: return "idle";
    case SessionState::LoggingIn: return "logging in";
    case SessionState::Connecting: return "connecting";
    case SessionState::CharacterSelect: return "character select";
    case SessionState::EnteringWorld: return "entering the world";
    case SessionState::InWorld: return "in the world";
    case SessionState::Closed: return "closed";
    case SessionState::Failed: return "failed";
  }
  return "unknown";
}

ClientSession::ClientSession(SessionConfig config)
    : config_(std::move(config)), transport_(Role::Client, config_.transport) {}

void ClientSession::fail(std::string sentence) {
  if (state_ == SessionState::Failed || state_ == SessionState::Closed) return;
  state_ = SessionState::Failed;
  failure_ = std::move(sentence);
  // Once connected, say goodbye: a server (ACE, GDLE) otherwise keeps the
  // abandoned session, and the account's next login is refused as in use.
  if (transport_.started() && !transport_.peer_disconnected()) transport_.disconnect(last_now_);
}

void ClientSession::start(double now) {
  last_now_ = now;
  if (state_ != SessionState::Idle) return;
  state_ = SessionState::LoggingIn;
  started_at_ = now;
  send_login_request(now);
}

void ClientSession::send_login_request(double now) {
  protocol::LoginRequest login;
  login.account = config_.account;
  login.password = config_.password;
  Packet p;
  p.header.sequence = 0;
  p.optional.login_request = protocol::encode(login);
  OutgoingDatagram d{serialize_packet(p), 0, std::nullopt};
  // The recording's copy: the same packet with the password blanked.
  login.password.assign(login.password.size(), kPasswordFiller);
  Packet blanked;
  blanked.header.sequence = 0;
  blanked.optional.login_request = protocol::encode(login);
  d.for_recording = serialize_packet(blanked);
  outgoing_.push_back(std::move(d));
  ++login_sent_;
  last_login_sent_ = now;
}

void ClientSession::send_connect_response(double now) {
  Packet p;
  p.header.sequence = 0;
  p.header.id = static_cast<std::uint16_t>(connect_->net_id & 0xFFFFU);
  p.header.iteration = server_iteration_;
  p.optional.connect_response = connect_->cookie;
  outgoing_.push_back({serialize_packet(p), 1, std::nullopt});
  last_connect_sent_ = now;
}

bool ClientSession::send_login_complete() {
  const auto action = protocol::encode_game_action(next_action_sequence(), lo::LoginCompleteAction);
  return send_message(action, protocol::queue::Weenie);
}

void ClientSession::receive(std::span<const std::uint8_t> datagram, std::uint8_t from_port_offset, double now) {
  last_now_ = now;
  if (state_ == SessionState::Failed || state_ == SessionState::Closed || state_ == SessionState::Idle) return;
  if (state_ == SessionState::LoggingIn) {
    auto p = parse_packet(datagram);
    // Only a well-formed ConnectRequest (flags exactly 0x40000, a valid
    // cleartext checksum) from the login port N starts the handshake (spec 3.3).
    if (!p || from_port_offset != 0 || p->header.flags != packet_flag::ConnectRequest || !cleartext_checksum_ok(*p)) {
      ++handshake_dropped_;
      return;
    }
    connect_ = *p->optional.connect_request;
    server_iteration_ = p->header.iteration;
    state_ = SessionState::Connecting;
    connect_started_ = now;
    send_connect_response(now);
    return;
  }
  if (state_ == SessionState::Connecting) {
    auto p = parse_packet(datagram);
    if (!p) {
      ++handshake_dropped_;
      return;
    }
    if (p->optional.connect_request) {
      // A fresh ConnectRequest (a new cookie) means the server started over:
      // answer that one. A resend of the one answered already is ignored.
      const bool well_formed =
          from_port_offset == 0 && p->header.flags == packet_flag::ConnectRequest && cleartext_checksum_ok(*p);
      if (!well_formed) {
        ++handshake_dropped_;
      } else if (p->optional.connect_request->cookie != connect_->cookie) {
        connect_ = *p->optional.connect_request;
        server_iteration_ = p->header.iteration;
        connect_started_ = now;
        send_connect_response(now);
      }
      return;
    }
    // The first packet that verifies under the session's keys, from either
    // port (ACE sends from N+1, GDLE from N, and retail plays on both), proves
    // the ConnectResponse was accepted. Only an encrypted checksum proves it
    // (anyone can compute a cleartext one); a packet that does not verify
    // changes nothing: it is tried on a transport of its own.
    if ((p->header.flags & packet_flag::EncryptedChecksum) == 0) {
      ++handshake_dropped_;
      return;
    }
    Transport candidate(Role::Client, config_.transport);
    candidate.start(connect_->client_seed, connect_->server_seed,
                    static_cast<std::uint16_t>(connect_->net_id & 0xFFFFU), server_iteration_, now);
    candidate.receive(datagram, now);
    if (candidate.stats().packets_received == 0) {
      ++handshake_dropped_;
      return;
    }
    transport_ = std::move(candidate);
    state_ = SessionState::CharacterSelect;
  } else {
    transport_.receive(datagram, now);
  }
  while (auto m = transport_.poll_message()) {
    on_message(*m, now);
    inbox_.push_back(SessionMessage{now, m->queue, std::move(m->bytes)});
  }
  // A Disconnect may come in cleartext (retail ends the session on one too),
  // so it may not be the server's.
  if (transport_.peer_disconnected()) fail("the server (or someone forging its address) disconnected");
}

void ClientSession::port_unreachable(std::uint16_t port, double /*now*/) {
  if (state_ == SessionState::Idle || state_ == SessionState::Failed || state_ == SessionState::Closed) return;
  if (state_ == SessionState::LoggingIn) {
    fail(fmt::format("nothing answers on {} (the system reports the port unreachable); is the server running?",
                     config_.server_name));
  } else {
    fail(fmt::format("{} went away (the system reports its port {} unreachable)", config_.server_name, port));
  }
}

void ClientSession::enter(std::uint32_t guid) {
  awaiting_choice_ = false;
  chosen_guid_ = guid;
  transport_.send_message(protocol::encode_opcode_only(lo::CharacterEnterWorldRequest), protocol::queue::Logon);
}

bool ClientSession::choose_character(std::uint32_t guid) {
  if (!awaiting_choice_ || !characters_ || creating_) return false;
  for (const auto& c : characters_->characters) {
    if (c.guid != guid) continue;
    enter(guid);
    return true;
  }
  return false;
}

void ClientSession::send_create(protocol::CharacterCreate m) {
  // The account exactly as F658 spelled it (ACE ignores an F656 whose
  // account differs), in the first free slot.
  m.account = characters_->account;
  m.slot = static_cast<std::uint32_t>(characters_->characters.size());
  transport_.send_message(protocol::encode(m), protocol::queue::Logon);
  creating_ = true;
  create_response_.reset();
}

bool ClientSession::create_character(protocol::CharacterCreate m) {
  if (!awaiting_choice_ || !characters_ || creating_) return false;
  send_create(std::move(m));
  return true;
}

bool ClientSession::delete_character(std::uint32_t guid) {
  if (!awaiting_choice_ || !characters_ || creating_) return false;
  const auto& list = characters_->characters;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].guid != guid) continue;
    protocol::CharacterDelete d{characters_->account, static_cast<std::uint32_t>(i)};
    transport_.send_message(protocol::encode(d), protocol::queue::Logon);
    pending_delete_ = guid;
    return true;
  }
  return false;
}

void ClientSession::on_message(const ReassembledMessage& m, double now) {
  (void)now;
  const std::uint32_t op = protocol::peek_opcode(m.bytes);
  switch (op) {
    case lo::DddInterrogation:
      transport_.send_message(protocol::encode_ddd_interrogation_response(), protocol::queue::Database);
      return;
    case lo::CharacterList: {
      auto list = protocol::decode_character_list(m.bytes);
      if (!list) {
        fail("the server's character list could not be read: " + list.error().message());
        return;
      }
      characters_ = std::move(*list);
      ++characters_revision_;
      if (state_ != SessionState::CharacterSelect || chosen_guid_ != 0) return;  // a late copy
      if (config_.create) {
        // `play --create`: create first (once), enter once the server says Ok.
        if (!create_sent_) {
          create_sent_ = true;
          send_create(*config_.create);
        }
        return;
      }
      if (config_.wait_for_choice && !config_.character) {
        awaiting_choice_ = true;
        return;
      }
      if (characters_->characters.empty()) {
        fail("the account has no characters; give --create NAME to make one, or choose Create in the window");
        return;
      }
      const auto& entries = characters_->characters;
      const auto named = [&entries](std::string_view name) -> const protocol::CharacterEntry* {
        const auto it = std::find_if(entries.begin(), entries.end(), [&](const auto& c) { return c.name == name; });
        return it == entries.end() ? nullptr : &*it;
      };
      // ACE lists an administrator's characters as "+Name": the name the
      // player made them with finds them too.
      const protocol::CharacterEntry* chosen = &entries.front();
      if (config_.character) {
        chosen = named(*config_.character);
        if (chosen == nullptr) chosen = named("+" + *config_.character);
      }
      if (!chosen) {
        fail(fmt::format("the account has no character named \"{}\"", *config_.character));
        return;
      }
      enter(chosen->guid);
      return;
    }
    case lo::ServerName: {
      if (auto n = protocol::decode_server_name(m.bytes)) world_name_ = n->world_name;
      return;
    }
    case lo::CharacterCreateResponse: {
      if (!creating_) return;
      creating_ = false;
      auto r = protocol::decode_character_create_response(m.bytes);
      if (!r) {
        create_response_ = protocol::CharacterCreateResponse{protocol::create_response::Undefined, 0, {}, 0};
        if (config_.create) fail("the server's answer to the new character could not be read: " + r.error().message());
        return;
      }
      create_response_ = *r;
      if (r->response != protocol::create_response::Ok) {
        if (config_.create) fail(protocol::describe_create_response(r->response));
        return;
      }
      // The new character joins the list and can be entered at once.
      characters_->characters.push_back({r->guid, r->name, r->seconds_greyed_out});
      ++characters_revision_;
      if (config_.create) enter(r->guid);
      return;
    }
    case lo::CharacterDelete: {
      // The server took the F655: the character waits out its deletion.
      if (pending_delete_ == 0 || !characters_) return;
      for (auto& c : characters_->characters) {
        if (c.guid == pending_delete_ && c.seconds_greyed_out == 0) {
          c.seconds_greyed_out = kDeletionSeconds;
          ++characters_revision_;
        }
      }
      pending_delete_ = 0;
      return;
    }
    case lo::CharacterEnterWorldServerReady: {
      if (!characters_) return;
      // The account exactly as F658 spelled it (ACE compares it byte for byte).
      protocol::CharacterEnterWorld enter{chosen_guid_, characters_->account};
      transport_.send_message(protocol::encode(enter), protocol::queue::Logon);
      state_ = SessionState::EnteringWorld;
      return;
    }
    case lo::CharacterError: {
      auto e = protocol::decode_character_error(m.bytes);
      fail(e ? protocol::describe_character_error(e->code) : std::string("the server refused the login"));
      return;
    }
    case lo::AccountBoot: {
      auto b = protocol::decode_account_boot(m.bytes);
      fail(b && !b->reason.empty() ? "the server ended the session: " + b->reason
                                   : std::string("the server ended the session"));
      return;
    }
    case po::PlayerCreate: {
      if (auto pc = protocol::decode_player_create(m.bytes)) player_guid_ = pc->guid;
      return;
    }
    case po::CreateObject: {
      if (state_ != SessionState::EnteringWorld || player_guid_ == 0) return;
      auto c = protocol::decode_create_object(m.bytes);
      if (c && c->guid == player_guid_ && !player_created_) {
        // In the world; the LoginComplete waits for the portal-space
        // animation's end (gmSmartBoxUI::UseTime, sim::GmSmartBoxUi), which
        // its owner sends through send_message or send_login_complete.
        player_created_ = true;
        state_ = SessionState::InWorld;
      }
      return;
    }
    default: return;
  }
}

void ClientSession::tick(double now) {
  last_now_ = now;
  switch (state_) {
    case SessionState::LoggingIn:
      if (now - started_at_ >= config_.login_timeout) {
        fail(fmt::format("no answer from {} within {:.0f} s ({} login attempts); is the server running?",
                         config_.server_name, config_.login_timeout, login_sent_));
        return;
      }
      if (now - last_login_sent_ >= config_.login_resend_interval) {
        if (login_sent_ >= config_.login_attempts) {
          fail(fmt::format("no answer from {} after {} login attempts ({:.0f} s); is the server running?",
                           config_.server_name, login_sent_, config_.login_resend_interval * login_sent_));
          return;
        }
        send_login_request(now);
      }
      return;
    case SessionState::Connecting:
      if (now - started_at_ >= config_.login_timeout) {
        fail(fmt::format("{} sent a ConnectRequest but never accepted the ConnectResponse within {:.0f} s",
                         config_.server_name, config_.login_timeout));
        return;
      }
      if (now - connect_started_ >= config_.connect_give_up) {
        // ConnectResponses left unanswered: the server dropped the half-open
        // session (spec/protocol.md correction 3); start a fresh handshake.
        if (login_sent_ >= config_.login_attempts) {
          fail(fmt::format("{} sent a ConnectRequest but never accepted the ConnectResponse", config_.server_name));
          return;
        }
        state_ = SessionState::LoggingIn;
        send_login_request(now);
        return;
      }
      if (now - last_connect_sent_ >= config_.connect_resend_interval) send_connect_response(now);
      return;
    case SessionState::CharacterSelect:
    case SessionState::EnteringWorld:
    case SessionState::InWorld:
      transport_.tick(now);
      if (transport_.timed_out(now)) {
        if (transport_.stats().stalled != 0) {
          fail(fmt::format("{} did not resend a lost packet for {:.0f} s; the connection is lost", config_.server_name,
                           config_.transport.silence_timeout));
        } else {
          fail(fmt::format("no packet from {} for {:.0f} s; the connection is lost", config_.server_name,
                           config_.transport.silence_timeout));
        }
      }
      return;
    default: return;
  }
}

std::vector<OutgoingDatagram> ClientSession::take_outgoing() {
  for (auto& d : transport_.take_outgoing()) outgoing_.push_back({std::move(d), 0, std::nullopt});
  std::vector<OutgoingDatagram> out;
  out.swap(outgoing_);
  return out;
}

std::optional<SessionMessage> ClientSession::poll_message() {
  if (inbox_.empty()) return std::nullopt;
  auto m = std::move(inbox_.front());
  inbox_.pop_front();
  return m;
}

bool ClientSession::send_message(std::span<const std::uint8_t> message, std::uint16_t queue) {
  if (!transport_.started() || state_ == SessionState::Failed || state_ == SessionState::Closed) return false;
  if (protocol::peek_opcode(message) == lo::GameAction &&
      protocol::peek_wrapped_type(message) == lo::LoginCompleteAction) {
    ++login_completes_;
  }
  transport_.send_message(message, queue);
  return true;
}

void ClientSession::logout(double now) {
  if (transport_.started() && state_ != SessionState::Failed && state_ != SessionState::Closed) {
    transport_.send_message(protocol::encode_opcode_only(lo::CharacterLogOff), protocol::queue::Logon);
    transport_.tick(now);
    transport_.disconnect(now);
  }
  if (state_ != SessionState::Failed) state_ = SessionState::Closed;
}

}  // namespace dereth::net
