// NVIDIA MIG geometry: which GPU instances fit on one GPU, where, and in which order.
// Facts from NVIDIA's MIG User Guide (its profile and placement tables, as
// `nvidia-smi mig -lgipp` lists them). A MIG GPU has 8 memory slices and 7 compute slices; a GPU
// instance takes a run of memory slices starting at one of its profile's valid start slots, and
// NVML refuses one whose memory slices overlap an existing instance's. The layout of one GPU is a
// small value (no heap) because the fleet will hold one per GPU, 100k of them.
// Public so the application's MIG editor offers, places and refuses exactly as the engine does.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan {

struct GpuModel;

/// GPUs that share MIG profile names and sizes. A100 80GB and H100 80GB share the names.
enum class MigFamily : std::uint8_t { A100_40GB, Gpu80GB, H200_141GB, B200_180GB };
inline constexpr std::array<MigFamily, 4> kMigFamilies{
    MigFamily::A100_40GB, MigFamily::Gpu80GB, MigFamily::H200_141GB, MigFamily::B200_180GB};

/// "A100 40GB", "A100 80GB / H100 80GB", … for messages.
std::string_view migFamilyName(MigFamily family);

/// The family of a catalog GPU, told by its memory: 40, 80, 141 or 180 GB with
/// migMaxInstances > 0. Nothing for a GPU without MIG (migMaxInstances 0) or one whose
/// profiles the reference does not list (H100 NVL 94 GB, GB200 186 GB, A30).
std::optional<MigFamily> migFamilyFor(double hbmGb, int migMaxInstances);
std::optional<MigFamily> migFamilyFor(const GpuModel& gpu);

/// One GPU-instance profile as `nvidia-smi mig -lgip` / `-lgipp` list it.
struct MigProfile {
    std::uint8_t id = 0;             ///< NVML GPU-instance profile id (19, 20, 15, 14, 9, 5, 0)
    std::string_view name;           ///< "3g.40gb", "1g.10gb+me"
    std::uint8_t memorySlices = 0;   ///< of 8
    std::uint8_t computeSlices = 0;  ///< of 7
    std::uint8_t maxCount = 0;       ///< instances of this profile one GPU can hold
    std::uint8_t startMask = 0;      ///< bit s set: may start at memory slot s
    int memoryGb = 0;                ///< the number in the name (nominal; usable is a bit less)

    /// The memory slices an instance starting at `start` takes, as a bitmask.
    constexpr std::uint8_t memoryMaskAt(int start) const {
        return static_cast<std::uint8_t>(((1u << memorySlices) - 1u) << start);
    }
    bool canStartAt(int start) const {
        return start >= 0 && start < 8 && (startMask >> start & 1u) != 0;
    }
};

/// The family's profiles, smallest first: ids 19, 20 (+me), 15, 14, 9, 5, 0.
std::span<const MigProfile> migProfiles(MigFamily family);
std::optional<MigProfile> migProfileByName(MigFamily family, std::string_view name);
/// Whether some MIG family has a profile of this name ("1g.10gb"): what a job may ask for.
bool isMigProfileName(std::string_view name);
std::optional<MigProfile> migProfileById(MigFamily family, int id);

/// The profile with the fewest memory slices, then the fewest compute slices, whose memory is
/// at least `gb` (by the name: 1g.10gb counts as 10 GB). Never the +me profile: the plain 1g
/// of the same size comes first. Nothing when even 7g is too small.
std::optional<MigProfile> smallestProfileWithMemory(MigFamily family, double gb);

/// One GPU instance: its profile and the memory slot it starts at.
struct MigInstance {
    std::uint8_t profileId = 0;
    std::uint8_t start = 0;
    bool operator==(const MigInstance&) const = default;
};

/// What placing did: where the instance went, or why it could not.
struct MigPlaceResult {
    int start = -1;       ///< memory slot the new instance starts at; -1 when refused
    std::string refusal;  ///< why not, naming what blocks it; empty when placed
    bool placed() const { return start >= 0; }
};

/// The GPU instances on one GPU. Instances are kept in start-slot order, so two layouts with
/// the same instances compare equal however they were built.
class MigLayout {
public:
    static constexpr int kMemorySlices = 8;
    static constexpr int kComputeSlices = 7;
    static constexpr int kMaxInstances = 7;

    /// `maxInstances` from the catalog's migMaxInstances (7 on A100/H100/H200/B200, 4 on A30);
    /// throws std::invalid_argument outside 1–7.
    explicit MigLayout(MigFamily family, int maxInstances = kMaxInstances);

    MigFamily family() const { return m_family; }
    int maxInstances() const { return m_maxInstances; }
    int size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    /// Instance `index` in start-slot order.
    const MigInstance& operator[](int index) const { return m_instances[index]; }
    std::span<const MigInstance> instances() const { return {m_instances.data(), m_count}; }
    MigProfile profileOf(const MigInstance& instance) const;

    /// Bit s set: memory slice s belongs to an instance.
    std::uint8_t memoryMask() const { return m_memoryMask; }
    int memorySlicesUsed() const;
    int computeSlicesUsed() const { return m_computeSlices; }
    int countOf(const MigProfile& profile) const;
    /// Index of the instance holding memory slice `slot`, or -1.
    int instanceAt(int slot) const;

    /// Valid starts of `profile` whose memory slices are all free (bit s = slot s): where
    /// placeAt() could put it, count limits aside.
    std::uint8_t freeStarts(const MigProfile& profile) const;
    /// Where place() would put `profile`, or -1 when it would refuse. No allocation.
    int autoStart(const MigProfile& profile) const;

    /// Explicit placement, as `nvidia-smi mig -cgi <id>:<start>`: placed at `start`, or a
    /// refusal naming the rule or the instances in the way. Throws std::invalid_argument for a
    /// profile of another family.
    MigPlaceResult placeAt(const MigProfile& profile, int start);
    /// Placement chosen as the driver does for `nvidia-smi mig -cgi <id>` (see autoStart in
    /// the .cpp for the rule and its evidence): creation order matters.
    MigPlaceResult place(const MigProfile& profile);
    /// Destroys instance `index` (start-slot order); later instances move down one index.
    /// Throws std::out_of_range for a bad index.
    void remove(int index);

    /// "4g.40gb@0 + 3g.40gb@4" in start-slot order; "" when empty.
    std::string describe() const;

    bool operator==(const MigLayout&) const = default;

private:
    /// The refusal of the count limits (instances per GPU, then per profile), if any.
    std::optional<std::string> countRefusal(const MigProfile& profile) const;
    /// "3g.40gb@0 and 1g.10gb@4": the instances holding any slice of `mask`, and how many.
    std::string holders(std::uint8_t mask) const;
    int holderCount(std::uint8_t mask) const;
    /// "which 3g.40gb@0 holds" / "which 1g.10gb@0 and 1g.10gb@1 hold".
    std::string whichHold(std::uint8_t mask) const;
    void insert(const MigProfile& profile, int start);

    std::array<MigInstance, kMaxInstances> m_instances{};  ///< [0, m_count) by start; rest {}
    MigFamily m_family;
    std::uint8_t m_maxInstances;
    std::uint8_t m_count = 0;
    std::uint8_t m_memoryMask = 0;
    std::uint8_t m_computeSlices = 0;
};

/// Reads a layout written by describe() or by hand: items separated by ',' or '+' (the '+' of
/// a "+me" name is part of the name), each "name@start" (placed there) or "name" (placed as
/// place() would, in the order written). Blanks around items are ignored; "" is an empty GPU.
/// Throws std::invalid_argument saying which item fails and why.
MigLayout parseMigLayout(std::string_view text, MigFamily family,
                         int maxInstances = MigLayout::kMaxInstances);

/// Instances of one profile a node has, as a device plugin counts them.
struct MigProfileCount {
    MigProfile profile;
    int count = 0;
};

/// A node's MIG instances spread over its GPUs (distributeMigInstances).
struct MigDistribution {
    /// Each GPU's profiles in the order they were placed: parseMigLayout of the names joined
    /// by ", " builds the same layout ("3g.40gb, 2g.20gb, 1g.10gb, 1g.10gb").
    std::vector<std::string> layoutTexts;
    std::vector<MigProfileCount> leftOut;  ///< instances no GPU could take, largest first
    long searchSteps = 0;                  ///< placements the search tried (0 without one)
};

/// Placements distributeMigInstances' search tries for one node by default. Of 800,000 nodes
/// of 1–8 GPUs with random real layouts (each family), the balanced spread left some out of
/// 51, and the search placed them all within 328 placements; counts no layout
/// holds (possible only in a hand-made file) stop the search here, after a few milliseconds.
inline constexpr long kMigSearchSteps = 2'000;

/// Spreads a node's instances over its `gpus` GPUs when only their counts are known (a
/// Kubernetes node in MIG's mixed strategy reports how many of each profile it has, not on
/// which GPU). Largest first (memory slices, then compute slices; then the profile a GPU holds
/// fewest of, so a +me before the plain 1g of its size), each on the GPU with the
/// most free memory slices that takes it as the driver places it (MigLayout::place), the
/// lowest index among equals: counts that divide evenly give every GPU the same layout. When
/// that leaves some out, a depth-first search over the GPUs (the same order first, GPUs of
/// equal layouts tried once) looks for an arrangement that holds them all, trying at most
/// `maxSearchSteps` placements; if it finds none, the balanced spread and what it left out are
/// the answer. Throws std::invalid_argument for a profile of another family, a negative count
/// or `gpus` outside 1–64.
MigDistribution distributeMigInstances(MigFamily family, int maxInstances, int gpus,
                                       std::span<const MigProfileCount> counts,
                                       long maxSearchSteps = kMigSearchSteps);

}  // namespace gpuplan
