#pragma once
// Builds the immutable RenderSnapshot after a tick (render_snapshot.hpp):
// objects in local-id order with their part poses and lights, then the
// effects' emitters and sound events. It reads the world and changes nothing.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "dereth/protocol/obj_desc.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class EffectsSink;
class GmSmartBoxUi;
class PhysicsObj;
class SmartBox;

// Keeps the snapshots it hands out, so that each tick's snapshot is built in
// the storage of one that nobody holds any more: its objects' part lists, its
// emitters' particle lists and its light and sound lists keep their capacity,
// and a steady world builds its snapshots without allocating (otherwise the
// hundreds of kilobytes of a busy tick go back to the system when the last
// snapshot is dropped and fault back in for the next). A snapshot still held
// (the renderer's, the world's last) is never reused: acquire makes another,
// and keeps up to `keep` of them. Not thread-safe itself: one builder calls
// acquire; the snapshots may be held and dropped on any thread.
class SnapshotRecycler {
 public:
  explicit SnapshotRecycler(std::size_t keep = 4) : keep_(keep) {}
  SnapshotRecycler(const SnapshotRecycler&) = delete;
  SnapshotRecycler& operator=(const SnapshotRecycler&) = delete;

  // A snapshot to build: a kept one nobody else holds, its scalars and its
  // lights and sounds reset but its objects and emitters still those of its
  // last build (build_render_snapshot and EffectsSink::publish write over
  // them in place), or a new one.
  [[nodiscard]] std::shared_ptr<RenderSnapshot> acquire();

  [[nodiscard]] std::size_t made() const noexcept { return made_; }      // snapshots allocated
  [[nodiscard]] std::size_t reused() const noexcept { return reused_; }  // built in a kept one

 private:
  std::size_t keep_;
  std::vector<std::shared_ptr<RenderSnapshot>> kept_;
  std::size_t made_ = 0;
  std::size_t reused_ = 0;
};

// Objects outside the world (no cell) and parented children that are not
// drawn are still published, flagged, so the renderer decides. `statics`
// (the world's static objects: landblock and EnvCell stabs) follow the
// SmartBox's objects, with LocalId::None and guid 0. `landscape` (the
// loaded landblocks' buildings and EnvCells) is shared, not copied. `sky`
// is the world's game-clock time (none before a TimeSync). `portal` is the
// world's gmSmartBoxUI (null: no portal space, the world drawn). With a
// `recycler` the snapshot is built in its storage (null: a new snapshot);
// what it shows is the same either way.
[[nodiscard]] SnapshotPtr build_render_snapshot(const SmartBox& box, const EffectsSink& effects, std::uint64_t tick,
                                                std::span<PhysicsObj* const> statics = {},
                                                std::shared_ptr<const LandscapeSnapshot> landscape = {},
                                                std::optional<SkyTime> sky = std::nullopt,
                                                const GmSmartBoxUi* portal = nullptr,
                                                SnapshotRecycler* recycler = nullptr);

// What the renderer draws of gmSmartBoxUI's portal space at `now` (the
// world's clock, the UI's last UseTime): its state, whether the viewport
// hides the world, the fade (the view-distance fraction), the tunnel's time
// since its loop began and the camera's heading, and the portal sounds so far.
[[nodiscard]] PortalSpace publish_portal_space(const GmSmartBoxUi& ui, double now) noexcept;

// An object's ObjDesc on its published parts and object: each texture
// change on its part (indices past the parts are dropped), the base palette
// and the subpalettes in colours, as ObjDesc::UnPack 0x005ABCF0 lists them
// (Subpalette::UnPack, ObjDesc::AddSubpalette: dat::add_subpalette).
// Part changes are not applied (the part array keeps the Setup's GfxObjs).
void publish_obj_desc(const protocol::ObjDesc& desc, ObjectSnapshot& out);

}  // namespace dereth::sim
