#include "dereth/app/presenters.hpp"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

namespace dereth::app {

namespace {
constexpr float kFollowDistance = 6.0F;  // metres behind the player
constexpr float kFollowPitch = 0.3F;     // radians looking down
constexpr float kFieldOfView = 45.0F;    // vertical degrees
// A jump further than this between two snapshots is a teleport (a portal,
// a recall): the follow camera is placed behind the player afresh.
constexpr float kTeleportDistance = 20.0F;
}  // namespace

void CameraRig::update(const sim::RenderSnapshot& snapshot, ViewerPlacer* placer) {
  place(snapshot);
  if (camera_.mode != render::CameraMode::Follow) return;
  // SmartBox::update_viewer: the eye stops where the viewer sphere does.
  camera_.viewer.reset();
  if (placed_ && placer != nullptr) camera_.viewer = placer->place_viewer(camera_.target, camera_.wanted_eye());
}

void CameraRig::place(const sim::RenderSnapshot& snapshot) {
  const sim::ObjectSnapshot* player = nullptr;
  for (const auto& o : snapshot.objects) {
    if (o.is_player) {
      player = &o;
      break;
    }
  }
  if (player == nullptr) return;
  if (placed_ && camera_.mode == render::CameraMode::Follow &&
      glm::length(player->root.origin - last_origin_) > kTeleportDistance) {
    if (framing_ && !framing_->after_teleport) framing_.reset();  // a framing is for the first view only
    placed_ = false;
  }
  last_origin_ = player->root.origin;
  if (!placed_) {
    const render::CameraMode mode = camera_.mode;
    // Close behind the player, a little above, with a narrower lens than
    // the camera's default so what the player faces reads at a distance.
    if (framing_) {
      camera_ = render::Camera::follow_behind(player->root, framing_->distance, framing_->pitch);
      camera_.fov_y_degrees = framing_->fov_y_degrees;
      camera_.target_height = framing_->target_height;
      camera_.track(player->root);
      if (framing_->toward.x != 0.0F || framing_->toward.y != 0.0F) {
        camera_.yaw = std::atan2(framing_->toward.x, framing_->toward.y);
      }
    } else {
      camera_ = render::Camera::follow_behind(player->root, kFollowDistance, kFollowPitch);
      camera_.fov_y_degrees = kFieldOfView;
    }
    camera_.mode = mode;
    if (mode == render::CameraMode::Free) camera_.position = camera_.eye();
    placed_ = true;
    return;
  }
  if (camera_.mode == render::CameraMode::Follow) camera_.track(player->root);
}

audio::Listener CameraRig::listener() const {
  audio::Listener l;
  l.position = camera_.eye();
  // The compass heading of the view: yaw 0 looks north (+Y), clockwise.
  l.orientation = glm::angleAxis(-camera_.yaw, glm::vec3(0.0F, 0.0F, 1.0F));
  return l;
}

core::Result<std::unique_ptr<OffscreenPresenter>> OffscreenPresenter::create(const dat::DatFile* portal,
                                                                             const dat::DatFile* cell,
                                                                             OffscreenOptions options) {
  DERETH_TRY(render::HeadlessContext context, render::HeadlessContext::create());
  DERETH_TRY(std::unique_ptr<render::Renderer> renderer,
             render::Renderer::create(render::HeadlessContext::loader(), portal, cell));
  auto p =
      std::unique_ptr<OffscreenPresenter>(new OffscreenPresenter(std::move(context), std::move(renderer), options));
  return p;
}

OffscreenPresenter::OffscreenPresenter(render::HeadlessContext context, std::unique_ptr<render::Renderer> renderer,
                                       OffscreenOptions options)
    : context_(std::move(context)), renderer_(std::move(renderer)), options_(options) {
  gl_description_ = context_.version() + ", " + context_.renderer();
}

OffscreenPresenter::~OffscreenPresenter() {
  // The renderer's GL objects go while its context is current.
  (void)context_.make_current();
  renderer_.reset();
}

core::Result<void> OffscreenPresenter::present(const sim::RenderSnapshot& snapshot, const FrameInfo& /*info*/) {
  rig_.update(snapshot, viewer_placer);
  return renderer_->render(snapshot, rig_.camera(), options_.width, options_.height);
}

core::Result<void> OffscreenPresenter::screenshot(const std::filesystem::path& path) {
  return renderer_->write_screenshot(path);
}

}  // namespace dereth::app
