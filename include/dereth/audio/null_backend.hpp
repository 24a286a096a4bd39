#pragma once
// NullBackend: the backend with no device, chosen by open_audio when no OpenAL
// device opens (or audio is off) and used by tests to check what would have
// played. Same gain, cut-off and voice logic as OpenAlBackend; it records every
// request, its result and listener, in order (docs/audio.md "Backends").

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dereth/audio/audio_backend.hpp"

namespace dereth::audio {

struct PlayRecord {
  SoundRequest request;
  PlayResult result;
  Listener listener;
  bool operator==(const PlayRecord&) const = default;
};

class NullBackend final : public AudioBackend {
 public:
  // At most this many records are kept (the earliest); later ones are counted
  // in records_dropped() so a long headless run stays bounded.
  static constexpr std::size_t kDefaultRecordLimit = 65536;

  explicit NullBackend(const SoundSettings& settings = {}, std::size_t record_limit = kDefaultRecordLimit)
      : AudioBackend(settings), record_limit_(record_limit) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "null"; }

  [[nodiscard]] const std::vector<PlayRecord>& records() const noexcept { return records_; }
  [[nodiscard]] std::uint64_t records_dropped() const noexcept { return records_dropped_; }
  void clear_records() noexcept {
    records_.clear();
    records_dropped_ = 0;
  }

  [[nodiscard]] bool voice_playing(std::size_t voice) override;
  // When the voice's sound ends (its start time plus the wave's duration).
  [[nodiscard]] core::Seconds voice_end(std::size_t voice) const noexcept;
  // The wave the voice was last started with (0 when idle).
  [[nodiscard]] std::uint32_t voice_wave(std::size_t voice) const noexcept;

 protected:
  void voice_stop(std::size_t voice) override;
  bool voice_start(std::size_t voice, const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm,
                   const PlayResult& how) override;
  void on_play(const SoundRequest& request, const PlayResult& result) override;

 private:
  struct Voice {
    bool active = false;
    std::uint32_t wave = 0;
    core::Seconds end{0.0};
  };
  std::vector<PlayRecord> records_;
  std::uint64_t records_dropped_ = 0;
  std::size_t record_limit_;
  std::array<Voice, kVoiceCount> voices_{};
};

}  // namespace dereth::audio
