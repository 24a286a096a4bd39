#pragma once
// For the transport and scenario-server tests that run dereth's client
// session without a World: the client's LoginComplete comes from the World's
// portal-space animation (sim::GmSmartBoxUi, sent by app::Controls), which
// these tests do not run. This stand-in says when to send one the moment the
// player's CreateObject arrives at world entry and the moment the destination
// UpdatePosition arrives after an F751 (the session's behaviour before the
// animation was ported), so such a test can keep testing its own layer. Tests
// of LoginComplete's timing use the World (tests/app, tests/sim).

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"

namespace dereth::test {

class LoginCompleteStandIn {
 public:
  // True when the client should send a LoginComplete after `message` (opcode
  // first); the player is the one PlayerCreate named.
  bool on_message(std::span<const std::uint8_t> message) {
    namespace po = protocol::opcode;
    const std::uint32_t op = protocol::peek_opcode(message);
    if (op == po::PlayerCreate) {
      if (auto pc = protocol::decode_player_create(message)) player_guid = pc->guid;
      return false;
    }
    if (player_guid == 0) return false;
    if (op == po::CreateObject && !entered_) {
      auto c = protocol::decode_create_object(message);
      if (c && c->guid == player_guid) {
        entered_ = true;
        return true;
      }
    } else if (op == po::PlayerTeleport) {
      teleporting_ = true;
    } else if (op == po::UpdatePosition && teleporting_) {
      auto u = protocol::decode_update_position(message);
      if (u && u->guid == player_guid) {
        teleporting_ = false;
        return true;
      }
    }
    return false;
  }
  // The LoginComplete game action with action sequence `sequence`.
  static std::vector<std::uint8_t> login_complete(std::uint32_t sequence) {
    return protocol::encode_game_action(sequence, protocol::login_opcode::LoginCompleteAction);
  }

  std::uint32_t player_guid = 0;

 private:
  bool entered_ = false;
  bool teleporting_ = false;
};

}  // namespace dereth::test
