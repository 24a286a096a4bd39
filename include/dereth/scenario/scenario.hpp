#pragma once
// A scenario: what the scenario server (a test double of ACE) knows about its
// accounts, its handshake values, the network it pretends to sit behind, and
// the timed stream of messages it plays after world entry. Scenarios are text
// files; docs/scenario.md documents every directive.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"

namespace dereth::scenario {

using core::Result;

struct ScenarioCharacter {
  std::uint32_t guid = 0;
  std::string name;
  bool operator==(const ScenarioCharacter&) const = default;
};

// Account names match the LoginRequest ignoring ASCII case; F658 and F657
// use `name` exactly as written here.
struct ScenarioAccount {
  std::string name;
  std::string password;
  std::uint32_t max_slots = 11;
  std::vector<ScenarioCharacter> characters;
  bool operator==(const ScenarioAccount&) const = default;
};

// Network impairment, seeded so that a run is reproducible. Applied to every
// datagram the server sends and, with `inbound`, to every one it receives.
struct Impairment {
  std::uint32_t seed = 1;
  double loss = 0;                // probability a datagram is dropped
  double duplicate = 0;           // probability a datagram is delivered twice
  double reorder = 0;             // probability a datagram is held back so later ones overtake it
  double delay_ms = 0;            // fixed one-way latency
  double jitter_ms = 0;           // extra latency, uniform in [0, jitter_ms]
  double reorder_window_ms = 60;  // a held-back datagram waits an extra uniform [1, window] ms
  bool inbound = false;
  [[nodiscard]] bool active() const noexcept {
    return loss > 0 || duplicate > 0 || reorder > 0 || delay_ms > 0 || jitter_ms > 0;
  }
  bool operator==(const Impairment&) const = default;
};

// The player's own CreateObject (its name and guid come from the character).
struct PlayerSpec {
  protocol::Position position{0xA9B4001F, {84.0F, 148.0F, 66.0F}, {}};
  std::uint32_t setup_id = 0x02000001;
  std::optional<std::uint32_t> motion_table_id = 0x09000001;
  std::optional<std::uint32_t> sound_table_id = 0x20000001;
  std::optional<std::uint32_t> physics_script_table_id = 0x34000004;
  // The PlayerDescription's attributes (Strength, Endurance, Quickness,
  // Coordination, Focus, Self; init levels, no ranks), with full vitals and
  // Run and Jump trained without experience: the client's run rate and jump
  // velocity come from them (CACQualities::InqRunRate / InqJumpVelocity).
  std::array<std::uint32_t, 6> attributes{100, 100, 100, 100, 100, 100};
  // The PlayerDescription's CharacterOptions1 word (0x02000000:
  // DisableHouseRestrictionEffects).
  std::uint32_t character_options1 = 0;
  // The spell bar's first tab (the PlayerDescription's favourites list 0):
  // the spells the player's cast key casts. Each is in the spell book too.
  std::vector<std::uint32_t> spells;
  // More spells the spell book holds (the spellbook window lists them; the
  // player puts them on the bar).
  std::vector<std::uint32_t> book;
  bool operator==(const PlayerSpec&) const = default;
};

// F751 PlayerTeleport, then (with a destination) the provisional F748 and the
// pink-bubble F74B; the client's next LoginComplete ends the teleport.
struct TeleportSpec {
  std::optional<protocol::Position> destination;
  bool operator==(const TeleportSpec&) const = default;
};

// `at T portal ...`: a portal, as ACE's Portal weenie stands in the world:
// its CreateObject (with the portal's item type, description flags, physics
// state and radar behaviour unless the line gives others) and where it sends
// a player who walks into it. The server teleports a player whose path
// between two of its MoveToStates or AutonomousPositions comes within
// `radius` metres of the portal's origin (horizontally, the feet no more
// than a portal's height above or a metre below it), as ACE's collision
// with the portal does, through the same F751 and F748 as `teleport`.
struct PortalSpec {
  protocol::CreateObject create;
  protocol::Position destination;
  float radius = 1.0F;
  bool operator==(const PortalSpec&) const = default;
};

// The portal's weenie and physics as ACE sends a portal's (ItemType Portal,
// Stuck | Attackable | Portal, Ethereal | ReportCollisions | Gravity |
// LightingOn, always on the radar).
namespace portal_defaults {
inline constexpr std::uint32_t kItemType = 0x00010000;
inline constexpr std::uint32_t kDescriptionFlags = 0x00040014;
inline constexpr std::uint32_t kPhysicsState = 0x00000C0C;
inline constexpr std::uint8_t kRadar = 4;
}  // namespace portal_defaults

// A chat message (protocol/chat.hpp): speech, emotes, and the tell, channel,
// weenie-error and status-string game events, which the server addresses to
// the entering character with its next game-event sequence.
struct ChatSpec {
  std::variant<protocol::HearSpeech, protocol::HearEmote, protocol::HearDirectSpeech, protocol::ChannelBroadcast,
               protocol::WeenieError, protocol::StatusString>
      message;
  bool operator==(const ChatSpec&) const = default;
};

// Any message, given as bytes (opcode first) and the queue it goes on.
struct RawMessage {
  std::vector<std::uint8_t> bytes;
  std::uint16_t queue = protocol::queue::SmartBox;
  bool operator==(const RawMessage&) const = default;
};

// One scripted message. Object timestamps (instance, position, state, ...)
// are left zero here and filled when the server plays the event, from
// counters it keeps per object and session.
using StreamMessage =
    std::variant<protocol::CreateObject, protocol::UpdatePosition, protocol::SetState, protocol::VectorUpdate,
                 protocol::MovementEvent, protocol::PlayScriptType, protocol::PlayScriptId, protocol::DeleteObject,
                 TeleportSpec, protocol::Sound, protocol::ServerMessage, ChatSpec, RawMessage, PortalSpec>;

struct StreamEvent {
  double time = 0;         // seconds after world entry (the server's answer to F657)
  int line = 0;            // the scenario line it came from
  bool to_player = false;  // guid=player: the guid is the entering character's
  StreamMessage message;
  bool operator==(const StreamEvent&) const = default;
};

// A key the scripted local player presses or releases: the key map's
// movement actions (docs/controls.md), by their settings-file names.
enum class InputKey : std::uint8_t {
  Forward,
  Backward,
  TurnLeft,
  TurnRight,
  StrafeLeft,
  StrafeRight,
  Walk,
  AutoRun,
  Jump,
  SelectNextMonster,
  MagicMode,  // "magic_mode": peace / magic combat mode
  CastSpell,  // "cast_spell": the spell bar's spell at the selection
};
// "forward", "backward", "turn_left", ... (the names `input` takes).
[[nodiscard]] std::string_view to_string(InputKey key) noexcept;

// `input KEY down|up at=T`: the client's own key, T seconds after the player
// enters the world (the client's clock; the server never sees these lines).
// dereth-sim and `dereth demo --headless` press them on the virtual clock.
struct InputEvent {
  double time = 0;
  int line = 0;
  InputKey key = InputKey::Forward;
  bool down = true;
  bool operator==(const InputEvent&) const = default;
};

// One `input` line without the directive ("cast_spell down at=2.5"), as
// `dereth play --input` takes it; `name` names it in the error.
Result<InputEvent> parse_input_line(std::string_view text, std::string_view name);

struct Scenario {
  std::string name;  // the file name, for messages
  std::string world_name = "Dereth";
  std::int32_t connections = 1;
  std::int32_t max_connections = 100;
  std::vector<ScenarioAccount> accounts;
  std::string client_version = "1802";

  // Handshake values: drawn from core::Rng(seed) per session unless fixed.
  std::uint32_t seed = 1;
  std::optional<std::uint32_t> server_seed;
  std::optional<std::uint32_t> client_seed;
  std::optional<std::uint64_t> cookie;

  bool server_full = false;    // every login: ConnectRequest, then F659 0x15
  double connect_race_ms = 0;  // ConnectResponses sooner than this after the ConnectRequest are ignored
  Impairment impairment;
  PlayerSpec player;

  std::vector<StreamEvent> stream;          // sorted by time (file order for ties)
  std::optional<double> loop_period;        // repeat the stream every this many seconds
  std::optional<std::uint32_t> loop_count;  // plays in all (absent: forever)
  double loop_from = 0;                     // only the events at or after this time repeat

  std::vector<InputEvent> inputs;  // the local player's keys, sorted by time (file order for ties)
  // `sandbox`: the server answers as the sandbox does (ServerConfig::sandbox)
  // whatever its configuration says: the demo's creatures can be fought.
  bool sandbox = false;
};

// Parses a scenario text. `name` (usually the file name) prefixes every
// error; an error's context is "name:line" and its offset the column (from 1)
// of the offending token.
Result<Scenario> parse_scenario(std::string_view text, std::string_view name);

// Reads and parses a scenario file; the file name names it.
Result<Scenario> load_scenario_file(const std::filesystem::path& path);

// The queue ACE sends a message of this opcode on (spec 4.3): 9 for UI
// (F7B0 events, chat, login messages, 0x02xx property updates), 5 for the DDD
// messages, 7 for F753, 10 (SmartBox) otherwise.
[[nodiscard]] std::uint16_t default_queue(std::uint32_t opcode) noexcept;

}  // namespace dereth::scenario
