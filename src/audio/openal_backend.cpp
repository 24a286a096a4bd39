#include "dereth/audio/openal_backend.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "dereth/core/log.hpp"

namespace dereth::audio {

namespace {

core::Error al_error(std::string field, std::string detail) {
  core::Error e;
  e.kind = core::ErrorKind::Io;
  e.context = "OpenAL";
  e.field = std::move(field);
  e.detail = std::move(detail);
  return e;
}

// While alive, everything written to fd 2 goes to a temporary file; finish()
// restores stderr and returns what was written (at most 16 KiB of it).
// ALSA and OpenAL Soft print their device-probe failures straight to stderr;
// this keeps a headless run's terminal clean without losing the text.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    if (file_ == nullptr) return;
    saved_ = ::dup(STDERR_FILENO);
    if (saved_ < 0 || ::dup2(::fileno(file_), STDERR_FILENO) < 0) {
      if (saved_ >= 0) ::close(saved_);
      saved_ = -1;
      std::fclose(file_);
      file_ = nullptr;
    }
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  ~StderrCapture() { (void)finish(); }

  std::string finish() {
    std::string text;
    if (file_ == nullptr) return text;
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
    std::rewind(file_);
    std::array<char, 16384> buffer{};
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), file_);
    text.assign(buffer.data(), n);
    std::fclose(file_);
    file_ = nullptr;
    return text;
  }

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

template <class F>
F alc_proc(ALCdevice* device, const char* name) {
  return reinterpret_cast<F>(alcGetProcAddress(device, name));
}

// Source position for a retail pan index: the unit circle in front of the
// listener (OpenAL's listener faces -Z, +X is right), at asin(pan / 15).
void place_source(ALuint source, int pan) {
  const float x = static_cast<float>(std::clamp(pan, -kMaxPan, kMaxPan)) / static_cast<float>(kMaxPan);
  const float z = -std::sqrt(std::max(0.0f, 1.0f - x * x));
  alSource3f(source, AL_POSITION, x, 0.0f, z);
}

}  // namespace

struct OpenAlBackend::Impl {
  struct CachedBuffer {
    std::shared_ptr<const Pcm> pcm;  // held so the key (its address) cannot be reused
    ALuint buffer = 0;
  };

  ALCdevice* device = nullptr;
  ALCcontext* context = nullptr;
  bool loopback = false;
  std::string name;
  std::uint32_t frequency = 0;
  LPALCRENDERSAMPLESSOFT render_samples = nullptr;
  std::array<ALuint, kVoiceCount> sources{};
  bool sources_made = false;
  std::unordered_map<const Pcm*, CachedBuffer> buffers;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  ~Impl() {
    if (context != nullptr) {
      alcMakeContextCurrent(context);
      if (sources_made) {
        for (ALuint s : sources) alSourceStop(s);
        alDeleteSources(static_cast<ALsizei>(sources.size()), sources.data());
      }
      for (auto& [key, cached] : buffers) alDeleteBuffers(1, &cached.buffer);
      alcMakeContextCurrent(nullptr);
      alcDestroyContext(context);
    }
    if (device != nullptr) alcCloseDevice(device);
  }

  bool make_current() const { return context != nullptr && alcMakeContextCurrent(context) == ALC_TRUE; }

  // Creates the context and the sixteen sources; the AL listener stays at the
  // origin facing -Z, and distance attenuation is off (retail computed it).
  core::Result<void> init_context(const ALCint* attributes) {
    context = alcCreateContext(device, attributes);
    if (context == nullptr) {
      return std::unexpected(
          al_error("alcCreateContext", fmt::format("ALC error 0x{:X}", static_cast<unsigned>(alcGetError(device)))));
    }
    if (!make_current()) return std::unexpected(al_error("alcMakeContextCurrent", "failed"));
    alGetError();
    alDistanceModel(AL_NONE);
    alGenSources(static_cast<ALsizei>(sources.size()), sources.data());
    if (const ALenum e = alGetError(); e != AL_NO_ERROR) {
      return std::unexpected(al_error(
          "alGenSources", fmt::format("AL error 0x{:X} creating {} sources", static_cast<unsigned>(e), kVoiceCount)));
    }
    sources_made = true;
    for (ALuint s : sources) {
      alSourcei(s, AL_SOURCE_RELATIVE, AL_TRUE);
      alSourcef(s, AL_ROLLOFF_FACTOR, 0.0f);
      alSourcei(s, AL_LOOPING, AL_FALSE);
    }
    ALCint rate = 0;
    alcGetIntegerv(device, ALC_FREQUENCY, 1, &rate);
    if (rate > 0) frequency = static_cast<std::uint32_t>(rate);
    return {};
  }

  // The AL buffer holding `pcm`, uploaded on first use; 0 on failure.
  ALuint buffer_for(const std::shared_ptr<const Pcm>& pcm) {
    if (auto it = buffers.find(pcm.get()); it != buffers.end()) return it->second.buffer;
    const std::size_t bytes = pcm->samples.size() * sizeof(std::int16_t);
    if (bytes > static_cast<std::size_t>(INT_MAX) || pcm->sample_rate > static_cast<std::uint32_t>(INT_MAX)) return 0;
    alGetError();
    ALuint buffer = 0;
    alGenBuffers(1, &buffer);
    if (alGetError() != AL_NO_ERROR) return 0;
    alBufferData(buffer, AL_FORMAT_MONO16, pcm->samples.data(), static_cast<ALsizei>(bytes),
                 static_cast<ALsizei>(pcm->sample_rate));
    if (alGetError() != AL_NO_ERROR) {
      alDeleteBuffers(1, &buffer);
      return 0;
    }
    buffers.emplace(pcm.get(), CachedBuffer{pcm, buffer});
    return buffer;
  }
};

OpenAlBackend::OpenAlBackend(const SoundSettings& settings, std::unique_ptr<Impl> impl)
    : AudioBackend(settings), impl_(std::move(impl)) {}

OpenAlBackend::~OpenAlBackend() = default;

core::Result<std::unique_ptr<OpenAlBackend>> OpenAlBackend::open_device(const SoundSettings& settings,
                                                                        const std::string& device_name, bool quiet) {
  auto impl = std::make_unique<Impl>();
  {
    std::optional<StderrCapture> capture;
    if (quiet) capture.emplace();
    impl->device = alcOpenDevice(device_name.empty() ? nullptr : device_name.c_str());
    if (capture) {
      const std::string said = capture->finish();
      if (!said.empty()) {
        core::logger(core::Module::Audio)->debug("the sound libraries said while opening the device: {}", said);
      }
    }
  }
  if (impl->device == nullptr) {
    return std::unexpected(
        al_error("alcOpenDevice", device_name.empty() ? std::string("no default output device opened")
                                                      : fmt::format("output device \"{}\" did not open", device_name)));
  }
  if (const ALCchar* n = alcGetString(impl->device, ALC_ALL_DEVICES_SPECIFIER); n != nullptr) impl->name = n;
  DERETH_CHECK(impl->init_context(nullptr));
  return std::unique_ptr<OpenAlBackend>(new OpenAlBackend(settings, std::move(impl)));
}

core::Result<std::unique_ptr<OpenAlBackend>> OpenAlBackend::open_loopback(const SoundSettings& settings,
                                                                          std::uint32_t frequency) {
  if (frequency < 8000 || frequency > 192000) {
    return std::unexpected(al_error("frequency", fmt::format("{} Hz is outside 8000..192000", frequency)));
  }
  if (alcIsExtensionPresent(nullptr, "ALC_SOFT_loopback") != ALC_TRUE) {
    return std::unexpected(al_error("ALC_SOFT_loopback", "the OpenAL library lacks the loopback extension"));
  }
  const auto open = alc_proc<LPALCLOOPBACKOPENDEVICESOFT>(nullptr, "alcLoopbackOpenDeviceSOFT");
  const auto supported = alc_proc<LPALCISRENDERFORMATSUPPORTEDSOFT>(nullptr, "alcIsRenderFormatSupportedSOFT");
  auto impl = std::make_unique<Impl>();
  impl->render_samples = alc_proc<LPALCRENDERSAMPLESSOFT>(nullptr, "alcRenderSamplesSOFT");
  if (open == nullptr || supported == nullptr || impl->render_samples == nullptr) {
    return std::unexpected(al_error("ALC_SOFT_loopback", "the loopback entry points are missing"));
  }
  impl->loopback = true;
  impl->device = open(nullptr);
  if (impl->device == nullptr) return std::unexpected(al_error("alcLoopbackOpenDeviceSOFT", "failed"));
  const auto rate = static_cast<ALCsizei>(frequency);
  if (supported(impl->device, rate, ALC_STEREO_SOFT, ALC_FLOAT_SOFT) != ALC_TRUE) {
    return std::unexpected(
        al_error("render format", fmt::format("32-bit float stereo at {} Hz is not supported", frequency)));
  }
  impl->name = "loopback";
  impl->frequency = frequency;
  const std::array<ALCint, 7> attributes = {
      ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT, ALC_FREQUENCY, rate, 0};
  DERETH_CHECK(impl->init_context(attributes.data()));
  return std::unique_ptr<OpenAlBackend>(new OpenAlBackend(settings, std::move(impl)));
}

std::string_view OpenAlBackend::name() const noexcept {
  return impl_->loopback ? "openal-loopback" : "openal";
}
bool OpenAlBackend::is_loopback() const noexcept {
  return impl_->loopback;
}
const std::string& OpenAlBackend::device_name() const noexcept {
  return impl_->name;
}
std::uint32_t OpenAlBackend::frequency() const noexcept {
  return impl_->frequency;
}

core::Result<std::vector<float>> OpenAlBackend::render(std::size_t frames) {
  if (!impl_->loopback) return std::unexpected(al_error("render", "only a loopback device renders into memory"));
  if (frames > static_cast<std::size_t>(INT_MAX / 2)) {
    return std::unexpected(al_error("render", fmt::format("{} frames is too many for one call", frames)));
  }
  std::vector<float> out(frames * 2);
  if (!impl_->make_current()) return std::unexpected(al_error("alcMakeContextCurrent", "failed"));
  impl_->render_samples(impl_->device, out.data(), static_cast<ALCsizei>(frames));
  return out;
}

bool OpenAlBackend::voice_playing(std::size_t voice) {
  if (voice >= kVoiceCount || !impl_->make_current()) return false;
  ALint state = AL_STOPPED;
  alGetSourcei(impl_->sources[voice], AL_SOURCE_STATE, &state);
  return state == AL_PLAYING;
}

void OpenAlBackend::voice_stop(std::size_t voice) {
  if (voice >= kVoiceCount || !impl_->make_current()) return;
  const ALuint s = impl_->sources[voice];
  alSourceStop(s);
  alSourcei(s, AL_BUFFER, 0);
}

bool OpenAlBackend::voice_start(std::size_t voice, const SoundRequest& /*request*/,
                                const std::shared_ptr<const Pcm>& pcm, const PlayResult& how) {
  if (voice >= kVoiceCount || !pcm || !impl_->make_current()) return false;
  const ALuint buffer = impl_->buffer_for(pcm);
  if (buffer == 0) return false;
  const ALuint s = impl_->sources[voice];
  alGetError();
  alSourceStop(s);
  alSourcei(s, AL_BUFFER, static_cast<ALint>(buffer));
  place_source(s, how.pan);
  alSourcef(s, AL_GAIN, static_cast<float>(std::pow(10.0, static_cast<double>(how.attenuation) / 20.0)));
  alSourcePlay(s);
  return alGetError() == AL_NO_ERROR;
}

}  // namespace dereth::audio
