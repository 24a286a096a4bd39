#include "dereth/app/controls.hpp"

#include <algorithm>

#include "dereth/app/chat.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/game_screen.hpp"
#include "dereth/app/world.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::app {

namespace {

sim::AttackHeight attack_height(KeyAction action) noexcept {
  switch (action) {
    case KeyAction::AttackHigh: return sim::AttackHeight::High;
    case KeyAction::AttackMedium: return sim::AttackHeight::Medium;
    default: return sim::AttackHeight::Low;
  }
}

}  // namespace

Controls::Controls(World& world, FrameLoop& loop, Presenter* presenter, SendFn send, StampFn next_stamp)
    : world_(&world), loop_(&loop), presenter_(presenter), send_(send), next_stamp_(next_stamp) {
  interpreter_ = std::make_unique<sim::CommandInterpreter>(world.context(), std::move(send), std::move(next_stamp));
  combat_ = std::make_unique<sim::ClientCombatSystem>(*interpreter_);
  combat_->set_object_lookup(
      [&world](std::uint32_t guid) -> const sim::PhysicsObj* { return world.box().get_object(guid); });
  interpreter_->set_combat_system(combat_.get());
  world.set_combat_system(combat_.get());
  world.context().set_controller(interpreter_.get());
  loop.set_outbound(this);
  // The presenter's keys, clicks and typed lines come here.
  if (presenter != nullptr) presenter->player_input = this;
}

Controls::~Controls() {
  world_->context().set_controller(nullptr);
  world_->set_combat_system(nullptr);
  loop_->set_outbound(nullptr);
  if (presenter_ != nullptr) presenter_->player_input = nullptr;
}

void Controls::outbound(double now) {
  // CPlayerSystem::SendLoginCompleteNotification: the LoginComplete game
  // action (0xF7B1 0x00A1) when the teleport animation ended this frame.
  for (int n = world_->take_login_completes(); n > 0 && send_; --n) {
    send_(protocol::encode_game_action(next_stamp(), protocol::login_opcode::LoginCompleteAction),
          protocol::queue::Weenie);
    ++login_completes_sent_;
  }
  // ACCWeenieObject::Remove 0x0058DD20: the selected object removed (the
  // server's DeleteObject) is deselected (selectedID 0, SelectionChanged).
  if (selected() != 0 && world_->box().get_object(selected()) == nullptr) select(0);
  take_spell_notices();
  combat_->use_time();
  interpreter_->use_time();
  // The combat system's lines go to the chat window, as retail's
  // AddTextToScroll puts them (the frame loop shows them next frame).
  for (auto& line : combat_->take_messages()) world_->add_local_chat(line);
  if (presenter_ != nullptr) {
    presenter_->hud_target = selected_name();
    presenter_->hud_target_health =
        world_->toolbar().selected() == selected() ? world_->toolbar().health() : std::nullopt;
    presenter_->hud_radar = radar_panel(world_->box(), selected());
    presenter_->hud_vitals = vitals_panel(world_->player_qualities());
    // The combat mode and the spell bar while the player is in the world.
    presenter_->hud_combat.reset();
    presenter_->hud_spell_bar.reset();
    presenter_->hud_spellbook.reset();
    if (world_->box().player() != nullptr) {
      presenter_->hud_combat = combat_panel(*combat_);
      const auto spells = world_->records().spell_table();
      presenter_->hud_spell_bar =
          spell_bar_panel(combat_->combat_mode, world_->player_module(), spellcasting_, spells.get());
      if (spellbook_open_) presenter_->hud_spellbook = spellbook_panel(spellbook_, spells.get(), spellcasting_.tab());
    }
  }
  // Scripted keys, in time order (input_at keeps them sorted), timed from
  // the first LoginComplete: the moment the player leaves portal space at
  // world entry, when a scenario server starts its timeline too.
  if (!entered_at_ && login_completes_sent_ > 0) entered_at_ = now;
  while (entered_at_ && !inputs_.empty() && *entered_at_ + inputs_.front().time <= now) {
    const ScheduledInput input = inputs_.front();
    inputs_.erase(inputs_.begin());
    key_action(input.action, input.pressed);
    std::erase(scripted_held_, input.action);
    if (input.pressed && is_movement(input.action) && input.action != KeyAction::AutoRun &&
        input.action != KeyAction::Jump) {
      scripted_held_.push_back(input.action);
    }
    ++inputs_pressed_;
  }
  // Scripted lines, in time order (say_at keeps them sorted).
  while (!scheduled_.empty() && scheduled_.front().time <= now) {
    const std::string typed = std::move(scheduled_.front().typed);
    scheduled_.erase(scheduled_.begin());
    say(typed);
  }
}

void Controls::on_chat_input(const std::string& typed) {
  say(typed);
}

// Every motion key, HoldRun (walk) included, goes through
// HandleKeyboardCommand: it sends the MoveToState when the hold key changes
// while the player moves. The player's own movement keys and mouse turns
// take over from a scripted walk (the demo's `input` lines).
void Controls::on_motion_key(std::uint32_t command, bool pressed) {
  if (pressed) take_over_from_script();
  motion_key(command, pressed);
}

bool Controls::on_key_action(KeyAction action, bool pressed) {
  if (pressed && is_movement(action)) take_over_from_script();
  return key_action(action, pressed);
}

void Controls::on_pick(const PickRay& ray) {
  pick(ray);
}

void Controls::on_mouse_turn(int direction) {
  if (direction != 0) take_over_from_script();
  mouse_turn(direction);
}

std::uint32_t Controls::next_stamp() const {
  return next_stamp_ ? next_stamp_() : 0;
}

bool Controls::say(std::string_view typed) {
  const auto command = parse_chat_input(typed);
  if (!command) {
    // A command written wrongly says how it is written, in the chat window.
    if (const std::string usage = chat_command_usage(typed); !usage.empty()) world_->add_local_chat(usage);
    return false;
  }
  if (!send_) return false;
  // Chat actions go on the same queue as the movement actions (3, Weenie).
  send_(encode_chat_command(*command, next_stamp()), 3);
  ++chat_sent_;
  return true;
}

void Controls::say_at(double time, std::string typed) {
  const auto at = std::upper_bound(scheduled_.begin(), scheduled_.end(), time,
                                   [](double t, const Scheduled& s) { return t < s.time; });
  scheduled_.insert(at, Scheduled{time, std::move(typed)});
}

KeyAction key_action_for(scenario::InputKey key) noexcept {
  switch (key) {
    case scenario::InputKey::Forward: return KeyAction::Forward;
    case scenario::InputKey::Backward: return KeyAction::Backward;
    case scenario::InputKey::TurnLeft: return KeyAction::TurnLeft;
    case scenario::InputKey::TurnRight: return KeyAction::TurnRight;
    case scenario::InputKey::StrafeLeft: return KeyAction::StrafeLeft;
    case scenario::InputKey::StrafeRight: return KeyAction::StrafeRight;
    case scenario::InputKey::Walk: return KeyAction::Walk;
    case scenario::InputKey::AutoRun: return KeyAction::AutoRun;
    case scenario::InputKey::Jump: return KeyAction::Jump;
    case scenario::InputKey::SelectNextMonster: return KeyAction::SelectNextMonster;
    case scenario::InputKey::MagicMode: return KeyAction::MagicMode;
    case scenario::InputKey::CastSpell: return KeyAction::CastCurrentSpell;
  }
  return KeyAction::Forward;
}

void Controls::schedule_inputs(const std::vector<scenario::InputEvent>& inputs) {
  for (const scenario::InputEvent& e : inputs) input_at(e.time, key_action_for(e.key), e.down);
}

bool Controls::is_movement(KeyAction action) noexcept {
  return motion_command_for(action).has_value() || action == KeyAction::AutoRun || action == KeyAction::Jump;
}

void Controls::take_over_from_script() {
  if (inputs_.empty() && scripted_held_.empty()) return;
  inputs_.clear();
  const std::vector<KeyAction> held = std::move(scripted_held_);
  scripted_held_.clear();
  for (const KeyAction action : held) key_action(action, false);
  taken_over_ = true;
}

void Controls::input_at(double time, KeyAction action, bool pressed) {
  const auto at = std::upper_bound(inputs_.begin(), inputs_.end(), time,
                                   [](double t, const ScheduledInput& s) { return t < s.time; });
  inputs_.insert(at, ScheduledInput{time, action, pressed});
}

bool Controls::key_action(KeyAction action, bool pressed) {
  if (auto command = motion_command_for(action)) {
    motion_key(*command, pressed);
    return true;
  }
  switch (action) {
    case KeyAction::AutoRun:
      if (pressed) interpreter_->handle_keyboard_command(sim::command::AutoRun, true);
      return true;
    case KeyAction::Jump:
      // ACCmdInterp::OnAction 0x0058B370's Jump action: CommenceJump down,
      // DoJump(autonomous = true) up, whatever the autonomy level (the
      // Jump command through MovePlayer is what goes non-autonomous).
      if (pressed) {
        combat_->commence_jump();
      } else {
        combat_->do_jump(true);
      }
      return true;
    case KeyAction::CombatToggle:
      if (pressed) combat_->toggle_combat_mode();
      return true;
    case KeyAction::MagicMode:
      // Peace and magic (retail: CombatToggleCombat with a wand wielded).
      if (pressed) {
        combat_->set_combat_mode(
            combat_->combat_mode == sim::CombatMode::Magic ? sim::CombatMode::NonCombat : sim::CombatMode::Magic, true);
      }
      return true;
    case KeyAction::CastCurrentSpell:
      if (pressed) cast_current_spell();
      return true;
    case KeyAction::AttackHigh:
    case KeyAction::AttackMedium:
    case KeyAction::AttackLow:
      // In magic mode the attack keys are the MagicCombat input map's: End
      // (medium) is CombatCastCurrentSpell; PageDown and Delete step the
      // spell bar (CombatNextSpell / CombatPrevSpell, the spell bar's).
      if (combat_->combat_mode == sim::CombatMode::Magic) {
        if (pressed && action == KeyAction::AttackMedium) cast_current_spell();
        return true;
      }
      // The key sets the height; down starts the request, up ends it
      // (the retail MeleeCombat input map's press and release).
      if (pressed) {
        combat_->set_requested_attack_height(attack_height(action));
        combat_->start_attack_request();
      } else {
        combat_->end_attack_request(attack_height(action));
      }
      return true;
    case KeyAction::SelectClosestMonster:
    case KeyAction::SelectNextMonster:
    case KeyAction::SelectPreviousMonster: {
      if (!pressed) return true;
      const sim::PhysicsObj* player = interpreter_->player_object();
      const glm::vec3 from = player != nullptr ? sim::global_frame(player->position()).origin : glm::vec3(0.0F);
      const int step = action == KeyAction::SelectClosestMonster ? 0 : action == KeyAction::SelectNextMonster ? 1 : -1;
      const auto candidates = creature_candidates();
      if (auto next = cycle_target(candidates, from, selected(), step)) select(*next);
      return true;
    }
    case KeyAction::ClearSelection:
      if (!pressed || selected() == 0) return false;
      select(0);
      return true;
    // ClientCombatSystem::HandleMagicAction 0x0056A6E0: the spell bar's
    // keys act on their press.
    case KeyAction::PrevSpellTab:
      if (pressed) spellcasting_.recv_notice_prev_spell_tab();
      return true;
    case KeyAction::NextSpellTab:
      if (pressed) spellcasting_.recv_notice_next_spell_tab();
      return true;
    case KeyAction::FirstSpellTab:
      if (pressed) spellcasting_.recv_notice_first_spell_tab();
      return true;
    case KeyAction::LastSpellTab:
      if (pressed) spellcasting_.recv_notice_last_spell_tab();
      return true;
    case KeyAction::PrevSpell:
      if (pressed) spellcasting_.recv_notice_prev_spell_selection(world_->player_module());
      return true;
    case KeyAction::NextSpell:
      if (pressed) spellcasting_.recv_notice_next_spell_selection(world_->player_module());
      return true;
    case KeyAction::FirstSpell:
      if (pressed) spellcasting_.recv_notice_first_spell_selection(world_->player_module());
      return true;
    case KeyAction::LastSpell:
      if (pressed) spellcasting_.recv_notice_last_spell_selection(world_->player_module());
      return true;
    case KeyAction::SpellSlot1:
    case KeyAction::SpellSlot2:
    case KeyAction::SpellSlot3:
    case KeyAction::SpellSlot4:
    case KeyAction::SpellSlot5:
    case KeyAction::SpellSlot6:
    case KeyAction::SpellSlot7:
    case KeyAction::SpellSlot8:
    case KeyAction::SpellSlot9:
    case KeyAction::SpellSlot10:
    case KeyAction::SpellSlot11:
    case KeyAction::SpellSlot12:
      // gmSpellcastingUI::RecvNotice_CastQuickslotSpell 0x004C78B0: the
      // slot's spell becomes the selection and is cast (gmSpellcastingUI::
      // Cast), the cast key's path; an empty slot does nothing.
      if (pressed &&
          spellcasting_.recv_notice_cast_quickslot_spell(world_->player_module(), spell_slot_of(action).value_or(0))) {
        cast_current_spell();
      }
      return true;
    case KeyAction::Spellbook:
      if (pressed) spellbook_open_ = !spellbook_open_;
      return true;
    case KeyAction::Chat:
    default: return false;
  }
}

void Controls::motion_key(std::uint32_t command, bool pressed) {
  const auto held = std::find(held_motions_.begin(), held_motions_.end(), command);
  if (pressed) {
    if (held == held_motions_.end()) held_motions_.push_back(command);
  } else {
    // The window passes every release, even of a key pressed while the chat
    // box had the keyboard (typing "walk" releases W, A and ...): only a
    // command the controls pressed is released, so typing moves nothing.
    if (held == held_motions_.end()) return;
    held_motions_.erase(held);
  }
  interpreter_->handle_keyboard_command(command, pressed);
}

void Controls::mouse_turn(int direction) {
  direction = direction > 0 ? 1 : direction < 0 ? -1 : 0;
  if (direction == mouse_turn_) return;
  if (mouse_turn_ != 0) {
    interpreter_->handle_keyboard_command(mouse_turn_ > 0 ? sim::command::TurnRight : sim::command::TurnLeft, false);
  }
  mouse_turn_ = direction;
  if (mouse_turn_ != 0) {
    interpreter_->handle_keyboard_command(mouse_turn_ > 0 ? sim::command::TurnRight : sim::command::TurnLeft, true);
  }
}

std::vector<TargetCandidate> Controls::creature_candidates() const {
  std::vector<TargetCandidate> out;
  const sim::PhysicsObj* player = interpreter_->player_object();
  for (const sim::PhysicsObj* o : world_->box().objects().objects()) {
    if (o == nullptr || o == player || !o->weenie() || !o->weenie()->is_creature) continue;
    out.push_back(TargetCandidate{o->id(), sim::global_frame(o->position()).origin});
  }
  return out;
}

std::optional<std::uint32_t> Controls::pick(const PickRay& ray) {
  std::vector<PickSphere> spheres;
  const sim::PhysicsObj* player = interpreter_->player_object();
  for (const sim::PhysicsObj* o : world_->box().objects().objects()) {
    if (o == nullptr || o == player) continue;
    const core::Frame frame = sim::global_frame(o->position());
    glm::vec3 centre{0.0F, 0.0F, 1.0F};
    float radius = 1.0F;
    if (o->setup_id() != 0) {
      if (auto setup = world_->records().setup(o->setup_id()); setup && setup->selection_sphere.radius > 0.0F) {
        centre = setup->selection_sphere.center;
        radius = setup->selection_sphere.radius;
      }
    }
    spheres.push_back(PickSphere{o->id(), frame.localtoglobal(centre * o->scale()), radius * o->scale()});
  }
  auto picked = pick_object(ray, spheres);
  if (picked) select(*picked);
  return picked;
}

void Controls::select(std::uint32_t guid) {
  combat_->selected_id = guid;
  // The meter is for a creature the player may attack, or a player.
  const sim::PhysicsObj* o = guid != 0 ? world_->box().get_object(guid) : nullptr;
  const bool has_health = o != nullptr && o->weenie() &&
                          ((o->weenie()->is_creature && o->weenie()->is_attackable) || o->weenie()->is_player);
  for (const std::uint32_t target : world_->toolbar().selection_changed(guid, has_health)) {
    if (send_) send_(protocol::encode(protocol::QueryHealth{next_stamp(), target}), protocol::queue::Weenie);
  }
}

std::uint32_t Controls::current_spell() const {
  if (const std::uint32_t selected = spellcasting_.selected_spell(); selected != 0) return selected;
  const auto& bar = world_->player_module().favorite_spells(spellcasting_.tab());
  return bar.empty() ? 0 : bar.front();
}

// ClientMagicSystem::CastSpell 0x00568040, the part dereth has: the spell
// at the selection through FreeHandsAndCastSpell 0x00566EF0 (targeted), or
// Event_CastUntargetedSpell with nothing selected.
bool Controls::cast_current_spell() {
  if (combat_->combat_mode != sim::CombatMode::Magic || !send_) return false;
  const std::uint32_t spell = current_spell();
  if (spell == 0) return false;  // retail: InqSpellBase fails, nothing is said
  const std::uint32_t stamp = next_stamp();
  const std::uint32_t target = selected();
  if (target != 0) {
    send_(protocol::encode(protocol::CastTargetedSpell{stamp, target, spell}), protocol::queue::Weenie);
  } else {
    send_(protocol::encode(protocol::CastUntargetedSpell{stamp, spell}), protocol::queue::Weenie);
  }
  ++casts_sent_;
  return true;
}

// CM_Magic's notices to the windows that hear them: gmSpellbookUI (its
// list) and gmSpellcastingUI (the favourites the book no longer knows
// taken off, and the server told).
void Controls::take_spell_notices() {
  using Kind = World::SpellNotice::Kind;
  const auto table = world_->records().spell_table();
  const sim::Qualities* qualities = world_->player_qualities();
  for (const World::SpellNotice& notice : world_->take_spell_notices()) {
    switch (notice.kind) {
      case Kind::PlayerDescReceived:
        // gmSpellbookUI::RecvNotice_PlayerDescReceived 0x0048BD40, gmSpellcastingUI's 0x004C69A0
        spellbook_.update_from_player_desc(qualities, table.get());
        send_favorites(spellcasting_.recv_notice_player_desc_received(world_->player_module(), qualities));
        break;
      case Kind::SpellAdded: spellbook_.recv_notice_spell_added(notice.spell, table.get()); break;
      case Kind::SpellRemoved:
        spellbook_.recv_notice_spell_removed(qualities, table.get());
        send_favorites(spellcasting_.recv_notice_spell_removed(world_->player_module(), qualities));
        break;
    }
  }
}

void Controls::send_favorites(const std::vector<sim::FavoriteChange>& changes) {
  if (!send_) return;
  for (const sim::FavoriteChange& c : changes) {
    const std::uint32_t stamp = next_stamp();
    const auto list = static_cast<std::uint32_t>(c.list);
    if (c.add) {
      send_(protocol::encode(protocol::AddSpellFavorite{stamp, c.spell, c.index, list}), protocol::queue::Weenie);
    } else {
      send_(protocol::encode(protocol::RemoveSpellFavorite{stamp, c.spell, list}), protocol::queue::Weenie);
    }
    ++favorites_sent_;
  }
}

bool Controls::add_spell_to_bar(std::uint32_t spell) {
  // CM_Magic::SendNotice_AddSpellShortcut -> gmSpellcastingUI::RecvNotice_AddSpellShortcut 0x004C7A70
  const auto changes =
      spellcasting_.recv_notice_add_spell_shortcut(world_->player_module(), world_->player_qualities(), spell);
  send_favorites(changes);
  return !changes.empty();
}

// gmSpellbookUI::ListenToElementMessage 0x0048BFD0: a click (7, 8) selects,
// a double click (10) sends the spell to the spell bar.
void Controls::on_spellbook_click(std::size_t index, bool double_click) {
  if (!spellbook_open_ || index >= spellbook_.spells().size()) return;
  const std::uint32_t spell = spellbook_.spells()[index];
  if (double_click) {
    add_spell_to_bar(spell);
  } else {
    spellbook_.set_selected(spell);
  }
}

std::string Controls::selected_name() const {
  if (selected() == 0) return {};
  const sim::PhysicsObj* o = world_->box().get_object(selected());
  if (o == nullptr || !o->weenie()) return {};
  return o->weenie()->name;
}

}  // namespace dereth::app
