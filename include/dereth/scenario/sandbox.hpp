#pragma once
// The sandbox: what `dereth-server` serves without a scenario file. Where a
// scripted scenario only records the player, the sandbox answers as an ACE
// server does (speech, emotes, tells, @commands, creatures to fight that die
// and come back), on the demo world without its scripted loop, so the local
// server is a place to play. Every answer: docs/scenario.md "The sandbox".

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/protocol/combat.hpp"
#include "dereth/scenario/scenario.hpp"

namespace dereth::scenario {

// A spell the sandbox lets its players cast (a war bolt: ACE's
// SpellProjectile). The numbers are the sandbox's, not retail's formulas:
// `mana` is spent at the launch, the bolt deals a whole number of points
// uniform in [min_damage, max_damage] of `damage_type`, flies at `speed`
// m/s, and is shown with the projectile `setup` and PhysicsEffectTable
// `pes` (whose Launch and Explode scripts the client plays).
struct SandboxSpell {
  std::uint32_t id = 27;  // Flame Bolt I
  std::string name = "Flame Bolt";
  std::uint32_t wcid = 7263;  // the projectile's weenie class
  std::uint32_t mana = 10;
  std::uint32_t damage_type = 0x10;  // Fire
  std::uint32_t min_damage = 7;
  std::uint32_t max_damage = 9;
  std::uint32_t setup = 0x0200040D;
  std::uint32_t pes = 0x34000005;
  float speed = 22.0F;
  std::uint16_t gesture = 0x002B;  // MotionCommand MagicBlast 0x4000002B, the war bolts' cast gesture
  bool operator==(const SandboxSpell&) const = default;
};

// The sandbox's own combat rules (ACE computes damage from skills, weapons
// and armour the sandbox's characters do not have): every attackable
// creature has `creature_health` hit points; a strike is evaded with
// probability `evade_chance`, otherwise it deals a whole number of points,
// uniform in [min_damage, max_damage] and scaled by 0.5 + the attack's
// power (0..1). Draws come from a generator seeded with `seed`, so a run is
// reproducible.
struct SandboxRules {
  std::uint32_t creature_health = 20;
  double evade_chance = 0.2;
  std::uint32_t min_damage = 3;
  std::uint32_t max_damage = 8;
  std::uint32_t seed = 1;
  double strike_delay = 0.5;   // seconds from the attack to the strike (ACE: the swing's attack frame)
  double swing_time = 1.0;     // seconds from the attack to its AttackDone (ACE: the swing's length)
  double corpse_time = 3.0;    // a dead creature lies this long, then is deleted
  double respawn_time = 10.0;  // seconds from a death to the creature's return
  std::vector<SandboxSpell> spells{SandboxSpell{}};  // what may be cast
  double cast_time = 1.0;  // seconds from the gesture to the launch (ACE: the gesture's length)
  bool operator==(const SandboxRules&) const = default;
};

// The scenario name the sandbox's world is given.
inline constexpr std::string_view kSandboxScenarioName = "sandbox";

// The sandbox's world: the embedded demo scenario's account, player and
// world-entry objects (the events at time 0), with every creature among
// them (ItemType Creature) made Attackable; no later events, no loop, no
// scripted input, and no `sandbox` line (ServerConfig::sandbox decides).
Result<Scenario> sandbox_scenario();

// The same, made from any scenario (sandbox_scenario() passes the demo's).
Scenario sandbox_of(Scenario scenario);

// Game events the sandbox's combat sends: the strike's outcome is
// protocol::CombatNotification (combat.hpp); UpdateHealth is the sandbox's
// own until the client asks for health bars.
namespace sandbox_event {
inline constexpr std::uint32_t KillerNotification = protocol::combat_event::KillerNotification;
inline constexpr std::uint32_t AttackerNotification = protocol::combat_event::AttackerNotification;
inline constexpr std::uint32_t EvasionAttackerNotification = protocol::combat_event::EvasionAttackerNotification;
inline constexpr std::uint32_t UpdateHealth = 0x01C0;  // u32 guid, f32 fraction
}  // namespace sandbox_event

// F7B1 0x01BF QueryHealth: u32 guid (the client asks for a health bar).
inline constexpr std::uint32_t kQueryHealthAction = 0x01BF;

std::vector<std::uint8_t> encode_update_health(std::uint32_t guid, float fraction, std::uint32_t target,
                                               std::uint32_t sequence);

}  // namespace dereth::scenario
