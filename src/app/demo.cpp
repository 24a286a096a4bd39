#include "dereth/app/demo.hpp"

#include <algorithm>

#include "dereth/audio/null_backend.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/xp_table.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/sim/player/qualities.hpp"

namespace dereth::app {

CameraFraming demo_camera_framing() noexcept {
  CameraFraming f;
  // Close behind the player, looking along its heading, nearly level, with
  // a narrow lens, at the start and after every recall's teleport: the
  // scenario stands the player facing the NPCs' exchange at both places.
  // At the start it stands at (70, 128) of landblock 0xA9B4, 8 m north of
  // the near bolt lane (y 120, x 49..71, 1 to 3.5 m above the player's
  // feet) and 2 m west of D, its east end; the far lane runs along y 96.
  // Looking a little west of south past the player, the near lane crosses
  // the view 11 to 15 m from the eye, above the player's head: the bolts
  // landing by D explode at the left, the answers fly off to the right.
  // After the teleport it faces the middle of the four NPCs from the east
  // and walks toward them, so both lanes stay in view.
  f.toward = glm::vec3(0.0F);
  f.distance = 4.0F;
  f.pitch = 0.08F;
  f.fov_y_degrees = 32.0F;
  f.target_height = 2.2F;
  f.after_teleport = true;
  return f;
}

scenario::ServerConfig demo_server_config(const dat::DatFile* portal) {
  scenario::ServerConfig config;
  const auto bytes_of = [portal](dat::Did id) -> std::optional<std::vector<std::uint8_t>> {
    if (portal == nullptr) return std::nullopt;
    auto entry = portal->find(id);
    if (!entry || !entry->has_value()) return std::nullopt;
    auto bytes = portal->read(**entry);
    if (!bytes) return std::nullopt;
    return std::move(*bytes);
  };
  std::optional<dat::SkillTable> skills;
  std::optional<dat::XpTable> xp;
  if (auto bytes = bytes_of(dat::kSkillTableId)) {
    if (auto table = dat::read_skill_table(*bytes, dat::kSkillTableId)) skills = std::move(*table);
  }
  if (auto bytes = bytes_of(dat::kXpTableId)) {
    if (auto table = dat::read_xp_table(*bytes, dat::kXpTableId)) xp = std::move(*table);
  }
  // CACQualities::InqRunRate 0x00592800 as the client asks it of the same
  // description and tables (the World's sim::Qualities).
  config.run_rate = [skills = std::move(skills),
                     xp = std::move(xp)](const protocol::PlayerDescription& d) -> std::optional<float> {
    float rate = 1.0F;
    if (!sim::Qualities(d, skills, xp).inq_run_rate(rate)) return std::nullopt;
    return rate;
  };
  return config;
}

core::Result<std::unique_ptr<HeadlessDemo>> HeadlessDemo::create(HeadlessDemoOptions options) {
  auto demo = std::unique_ptr<HeadlessDemo>(new HeadlessDemo());
  demo->options_ = options;
  const dat::DatFile* portal = options.portal;
  const dat::DatFile* cell = options.cell;
  if (portal == nullptr) {
    DERETH_TRY(demo::DemoWorld built, demo::build_demo_world());
    DERETH_TRY(demo->own_portal_, dat::DatFile::from_bytes(std::move(built.portal), "demo client_portal.dat"));
    DERETH_TRY(demo->own_cell_, dat::DatFile::from_bytes(std::move(built.cell), "demo client_cell_1.dat"));
    portal = &*demo->own_portal_;
    cell = &*demo->own_cell_;
  }
  DERETH_TRY(scenario::Scenario parsed, options.scenario_text
                                            ? scenario::parse_scenario(*options.scenario_text, "test scenario")
                                            : scenario::demo_scenario());
  const std::vector<scenario::InputEvent> inputs = parsed.inputs;  // the scripted walk
  scenario::LoopbackOptions loopback_options;
  loopback_options.server = demo_server_config(portal);
  DERETH_TRY(scenario::Loopback loopback, scenario::Loopback::create(std::move(parsed), std::move(loopback_options)));
  demo->inbox_ = std::make_unique<LoopbackInbox>(std::move(loopback));
  demo->world_ = std::make_unique<World>(demo->clock_, portal);
  demo->world_->use_terrain(cell);
  OffscreenOptions oo;
  oo.width = options.width;
  oo.height = options.height;
  oo.every_frame = options.render_every_frame;
  DERETH_TRY(demo->presenter_, OffscreenPresenter::create(portal, cell, oo));
  demo->presenter_->rig().set_framing(demo_camera_framing());
  demo->audio_ = std::make_unique<audio::AudioSystem>(std::make_unique<audio::NullBackend>(), &demo->world_->records());
  LoopOptions lo;
  lo.virtual_clock = true;
  lo.trace = options.trace;
  lo.frame_stats = options.render_every_frame;  // --stats: the frame-time distribution too
  if (options.record_frames) {
    lo.screenshot_dir = *options.record_frames;
    lo.screenshot_every = std::max<std::uint64_t>(options.record_every, 1);
  }
  demo->loop_ = std::make_unique<FrameLoop>(*demo->world_, *demo->inbox_, &demo->clock_, demo->presenter_.get(),
                                            demo->audio_.get(), lo);
  // The local player is the command interpreter's, as in every live run.
  LoopbackInbox& inbox = *demo->inbox_;
  demo->controls_ = std::make_unique<Controls>(
      *demo->world_, *demo->loop_, demo->presenter_.get(),
      [&inbox](std::vector<std::uint8_t> m, std::uint16_t queue) { inbox.loopback().send(m, queue); },
      [&inbox]() { return inbox.loopback().next_action_sequence(); });
  demo->controls_->schedule_inputs(inputs);
  // The scenario server's TimeSync drives the game clock, as a live server's does.
  demo->loop_->set_session(&inbox);
  return demo;
}

HeadlessDemo::~HeadlessDemo() {
  // The loop and world refer to the presenter and inbox: tear down in order.
  controls_.reset();
  loop_.reset();
  audio_.reset();
  presenter_.reset();
  world_.reset();
  inbox_.reset();
}

core::Result<void> HeadlessDemo::run_to_tick(std::uint64_t tick, std::optional<std::filesystem::path> screenshot) {
  if (loop_->report().ticks >= tick) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "demo", "tick", 0,
                                       "the demo is already past tick " + std::to_string(tick)});
  }
  const bool saving = screenshot.has_value();
  loop_->set_max_ticks(tick);
  loop_->set_screenshot_at_end(std::move(screenshot));
  DERETH_TRY(const LoopReport report, loop_->run());
  if (!saving && !options_.render_every_frame) {
    // The loop draws only when a picture is wanted: draw this frame now.
    FrameInfo info;
    info.tick = report.ticks;
    DERETH_CHECK(presenter_->present(*world_->snapshot(), info));
  }
  if (inbox_->finished()) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "demo", "login", 0, inbox_->loopback().failure()});
  }
  return {};
}

core::Result<render::Image> HeadlessDemo::draw(const sim::RenderSnapshot& snapshot) {
  DERETH_CHECK(presenter_->renderer().render(snapshot, presenter_->rig().camera(), options_.width, options_.height));
  return presenter_->renderer().read_pixels();
}

}  // namespace dereth::app
