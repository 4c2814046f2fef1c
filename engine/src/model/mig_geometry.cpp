#include "gpuplan/model/mig_geometry.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "gpuplan/model/catalog.hpp"
#include "io/text_rules.hpp"

namespace gpuplan {

namespace {

constexpr int kSlots = MigLayout::kMemorySlices;

/// The profile shapes, the same on every family (reference §1 table, `-lgipp` output).
struct Shape {
    std::uint8_t id, memorySlices, computeSlices, maxCount, startMask;
};
constexpr std::array<Shape, 7> kShapes{{
    {19, 1, 1, 7, 0b0111'1111},  // 1g: starts 0–6; no profile starts at 7
    {20, 1, 1, 1, 0b0111'1111},  // 1g+me (with the media engines): one per GPU
    {15, 2, 1, 4, 0b0101'0101},  // 1g with 2 memory slices: 0, 2, 4, 6
    {14, 2, 2, 3, 0b0001'0101},  // 2g: 0, 2, 4 (not 6)
    {9, 4, 3, 2, 0b0001'0001},   // 3g: 0, 4
    {5, 4, 4, 1, 0b0000'0001},   // 4g: 0 only
    {0, 8, 7, 1, 0b0000'0001},   // 7g: the whole GPU
}};

using Names = std::array<std::string_view, 7>;
constexpr std::array<Names, 4> kNames{{
    {"1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"},
    {"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"},
    {"1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"},
    {"1g.23gb", "1g.23gb+me", "1g.45gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb"},
}};

/// "3g.40gb" → 40: the digits after the '.', so the size cannot disagree with the name.
constexpr int gbFromName(std::string_view name) {
    int gb = 0;
    for (std::size_t i = name.find('.') + 1; i < name.size() && name[i] >= '0' && name[i] <= '9';
         ++i)
        gb = gb * 10 + (name[i] - '0');
    return gb;
}

constexpr std::array<MigProfile, 7> profilesNamed(const Names& names) {
    std::array<MigProfile, 7> out{};
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Shape& s = kShapes[i];
        out[i] = MigProfile{s.id,       names[i],    s.memorySlices,      s.computeSlices,
                            s.maxCount, s.startMask, gbFromName(names[i])};
    }
    return out;
}

constexpr std::array<std::array<MigProfile, 7>, 4> kProfiles{
    {profilesNamed(kNames[0]), profilesNamed(kNames[1]), profilesNamed(kNames[2]),
     profilesNamed(kNames[3])}};
static_assert(kProfiles[1][4].memoryGb == 40 && kProfiles[2][6].memoryGb == 141);

/// "slot 0" or "slots 0, 2, 4".
std::string slotList(std::uint8_t mask) {
    std::string out = std::popcount(mask) == 1 ? "slot " : "slots ";
    bool first = true;
    for (int s = 0; s < kSlots; ++s) {
        if ((mask >> s & 1u) == 0) continue;
        if (!first) out += ", ";
        out += std::to_string(s);
        first = false;
    }
    return out;
}

/// "can only start at slot 0" or "can start at slots 0, 2, 4".
std::string startsPhrase(const MigProfile& p) {
    return (std::popcount(p.startMask) == 1 ? "can only start at " : "can start at ") +
           slotList(p.startMask);
}

/// "memory slice 6" or "memory slices 0–3" for a contiguous run.
std::string slicesPhrase(std::uint8_t mask) {
    const int first = std::countr_zero(mask), last = kSlots - 1 - std::countl_zero(mask);
    if (first == last) return "memory slice " + std::to_string(first);
    return "memory slices " + std::to_string(first) + "–" + std::to_string(last);
}

/// Placements (profile, start) of the family still free on `occupied` that `mask` would take.
int placementsBlocked(std::span<const MigProfile> profiles, std::uint8_t occupied,
                      std::uint8_t mask) {
    int blocked = 0;
    for (const MigProfile& q : profiles)
        for (int t = 0; t < kSlots; ++t) {
            if (!q.canStartAt(t)) continue;
            const std::uint8_t m = q.memoryMaskAt(t);
            if ((m & occupied) == 0 && (m & mask) != 0) ++blocked;
        }
    return blocked;
}

std::string_view trimmed(std::string_view s) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::string_view migFamilyName(MigFamily family) {
    switch (family) {
        case MigFamily::A100_40GB:
            return "A100 40GB";
        case MigFamily::Gpu80GB:
            return "A100 80GB / H100 80GB";
        case MigFamily::H200_141GB:
            return "H200 141GB";
        case MigFamily::B200_180GB:
            return "B200 180GB";
    }
    return "?";
}

std::optional<MigFamily> migFamilyFor(double hbmGb, int migMaxInstances) {
    if (migMaxInstances <= 0) return std::nullopt;
    // By memory rather than by catalog id: an A800 80GB or an H800 80GB added to the catalog
    // has the 80 GB names too. 94 GB (H100 NVL) and 186 GB (GB200) have other names.
    struct Size {
        double gb;
        MigFamily family;
    };
    for (const Size& s : {Size{40, MigFamily::A100_40GB}, Size{80, MigFamily::Gpu80GB},
                          Size{141, MigFamily::H200_141GB}, Size{180, MigFamily::B200_180GB}})
        if (std::abs(hbmGb - s.gb) < 0.5) return s.family;
    return std::nullopt;
}

std::optional<MigFamily> migFamilyFor(const GpuModel& gpu) {
    return migFamilyFor(gpu.hbmGb, gpu.migMaxInstances);
}

std::span<const MigProfile> migProfiles(MigFamily family) {
    return kProfiles[static_cast<std::size_t>(family)];
}

std::optional<MigProfile> migProfileByName(MigFamily family, std::string_view name) {
    for (const MigProfile& p : migProfiles(family))
        if (p.name == name) return p;
    return std::nullopt;
}

bool isMigProfileName(std::string_view name) {
    for (MigFamily f : kMigFamilies)
        if (migProfileByName(f, name)) return true;
    return false;
}

std::optional<MigProfile> migProfileById(MigFamily family, int id) {
    for (const MigProfile& p : migProfiles(family))
        if (p.id == id) return p;
    return std::nullopt;
}

std::optional<MigProfile> smallestProfileWithMemory(MigFamily family, double gb) {
    std::optional<MigProfile> best;
    for (const MigProfile& p : migProfiles(family)) {
        if (!(gb <= p.memoryGb)) continue;  // also skips NaN
        // Strictly fewer only: of equal shapes the earlier wins, so 1g before 1g+me.
        if (!best || p.memorySlices < best->memorySlices ||
            (p.memorySlices == best->memorySlices && p.computeSlices < best->computeSlices))
            best = p;
    }
    return best;
}

MigLayout::MigLayout(MigFamily family, int maxInstances)
    : m_family(family), m_maxInstances(static_cast<std::uint8_t>(maxInstances)) {
    if (maxInstances < 1 || maxInstances > kMaxInstances)
        throw std::invalid_argument("MIG instances per GPU must be 1–7, not " +
                                    std::to_string(maxInstances));
}

MigProfile MigLayout::profileOf(const MigInstance& instance) const {
    return *migProfileById(m_family, instance.profileId);
}

int MigLayout::memorySlicesUsed() const {
    return std::popcount(m_memoryMask);
}

int MigLayout::countOf(const MigProfile& profile) const {
    int n = 0;
    for (const MigInstance& i : instances())
        n += i.profileId == profile.id;
    return n;
}

int MigLayout::instanceAt(int slot) const {
    for (int i = 0; i < m_count; ++i) {
        const MigInstance& in = m_instances[i];
        if ((profileOf(in).memoryMaskAt(in.start) >> slot & 1u) != 0) return i;
    }
    return -1;
}

std::uint8_t MigLayout::freeStarts(const MigProfile& profile) const {
    std::uint8_t starts = 0;
    for (int s = 0; s < kSlots; ++s)
        if (profile.canStartAt(s) && (profile.memoryMaskAt(s) & m_memoryMask) == 0)
            starts |= static_cast<std::uint8_t>(1u << s);
    return starts;
}

// Which start the driver picks when none is given (`nvidia-smi mig -cgi <id>`, NVML
// nvmlDeviceCreateGpuInstance; the explicit form is nvmlDeviceCreateGpuInstanceWithPlacement).
// NVIDIA does not document the rule and the driver is closed. What is documented is what it
// chose: the MIG User Guide, "Getting Started with MIG" → "Instance Geometry" (A100 40GB), says
// "the NVIDIA driver chooses the placement" and lists, by `nvidia-smi mig -lgi`:
//   -cgi 19,14,5            → 1g@6, 2g@4, 4g@0
//   -cgi 9,19,14,19         → 3g@4, 1g@0, 2g@2, 1g@1
//   -cgi 14,19,19,19,19,19  → 2g@4, 1g@6, then 1g@0, @1, @2, @3
//   -cgi 19,19,14,9         → 1g, 1g, 2g, then 3g fails "Insufficient Resources"; the GPU
//                             instance ids it printed (13, 11, 3) are slots 6, 4, 0 by the
//                             id ↔ slot pairs of the listings above (inferred).
// Also kubernetes-sigs/dra-driver-nvidia-gpu PR #1018: right after `-mig 1`, `-cgi 1g.20gb` on
// an H100 (114 SMs) gave device "gpu-0-mig-1g20gb-15-6", a name PR #852 defines as profile,
// profile id, placement start: profile 15 at start 6.
// "Highest free start first" explains the failure but not the listings (after 3g@4 it would put
// the 1g at 3, not 0); "lowest free start first" would put the first 1g at 0, not 6.
// The rule below reproduces every placement above and the failure; it is our inference from
// those outcomes, not a documented algorithm: among the valid starts whose memory is free, take
// the one that blocks the fewest placements (of all the family's profiles) that are still
// free, and of equal ones the lowest start. Creation order matters, as the guide warns, and as
// nvidia-mig-parted shows by retrying other orderings when one fails.
int MigLayout::autoStart(const MigProfile& profile) const {
    if (m_count >= m_maxInstances || countOf(profile) >= profile.maxCount) return -1;
    const std::uint8_t starts = freeStarts(profile);
    int best = -1, bestBlocked = 0;
    for (int s = 0; s < kSlots; ++s) {
        if ((starts >> s & 1u) == 0) continue;
        const int blocked =
            placementsBlocked(migProfiles(m_family), m_memoryMask, profile.memoryMaskAt(s));
        if (best < 0 || blocked < bestBlocked) {
            best = s;
            bestBlocked = blocked;
        }
    }
    return best;
}

std::optional<std::string> MigLayout::countRefusal(const MigProfile& profile) const {
    if (m_count >= m_maxInstances)
        return "at most " + std::to_string(m_maxInstances) + " instances per GPU";
    if (countOf(profile) >= profile.maxCount)
        return "at most " + std::to_string(profile.maxCount) + " × " + std::string(profile.name) +
               " per GPU";
    return std::nullopt;
}

int MigLayout::holderCount(std::uint8_t mask) const {
    int n = 0;
    for (const MigInstance& i : instances())
        n += (profileOf(i).memoryMaskAt(i.start) & mask) != 0;
    return n;
}

std::string MigLayout::holders(std::uint8_t mask) const {
    std::string out;
    const int total = holderCount(mask);
    int listed = 0;
    for (const MigInstance& i : instances()) {
        const MigProfile p = profileOf(i);
        if ((p.memoryMaskAt(i.start) & mask) == 0) continue;
        ++listed;
        if (listed > 1) out += listed == total ? " and " : ", ";
        out += std::string(p.name) + "@" + std::to_string(i.start);
    }
    return out;
}

std::string MigLayout::whichHold(std::uint8_t mask) const {
    return "which " + holders(mask) + (holderCount(mask) > 1 ? " hold" : " holds");
}

namespace {
void requireFamily(MigFamily family, const MigProfile& profile) {
    const std::optional<MigProfile> own = migProfileById(family, profile.id);
    if (!own || own->name != profile.name)
        throw std::invalid_argument("MIG profile " + std::string(profile.name) +
                                    " is not one of the " + std::string(migFamilyName(family)) +
                                    " profiles");
}
}  // namespace

MigPlaceResult MigLayout::placeAt(const MigProfile& profile, int start) {
    requireFamily(m_family, profile);
    const auto name = [&] { return std::string(profile.name); };
    if (start < 0 || start >= kSlots)
        return {-1, "no memory slot " + std::to_string(start) + "; slots are 0–7"};
    if (!profile.canStartAt(start))
        return {-1, name() + " cannot start at slot " + std::to_string(start) + "; it " +
                        startsPhrase(profile)};
    if (auto refusal = countRefusal(profile)) return {-1, std::move(*refusal)};
    const std::uint8_t mask = profile.memoryMaskAt(start);
    if ((mask & m_memoryMask) != 0)
        return {-1, name() + "@" + std::to_string(start) + " needs " + slicesPhrase(mask) + ", " +
                        whichHold(mask)};
    insert(profile, start);
    return {start, {}};
}

MigPlaceResult MigLayout::place(const MigProfile& profile) {
    requireFamily(m_family, profile);
    if (auto refusal = countRefusal(profile)) return {-1, std::move(*refusal)};
    const int start = autoStart(profile);
    if (start >= 0) {
        insert(profile, start);
        return {start, {}};
    }
    // Every valid start overlaps an instance: name them.
    std::uint8_t reach = 0;
    for (int s = 0; s < kSlots; ++s)
        if (profile.canStartAt(s)) reach |= profile.memoryMaskAt(s);
    if (std::popcount(profile.startMask) == 1)
        return {-1,
                std::string(profile.name) + " " + startsPhrase(profile) + ", " + whichHold(reach)};
    return {-1, std::string(profile.name) + " " + startsPhrase(profile) + "; all are taken (by " +
                    holders(reach) + ")"};
}

void MigLayout::insert(const MigProfile& profile, int start) {
    int at = m_count;
    while (at > 0 && m_instances[at - 1].start > start) {
        m_instances[at] = m_instances[at - 1];
        --at;
    }
    m_instances[at] = {profile.id, static_cast<std::uint8_t>(start)};
    ++m_count;
    m_memoryMask |= profile.memoryMaskAt(start);
    m_computeSlices = static_cast<std::uint8_t>(m_computeSlices + profile.computeSlices);
}

void MigLayout::remove(int index) {
    if (index < 0 || index >= m_count)
        throw std::out_of_range("MIG layout has no instance " + std::to_string(index));
    const MigInstance gone = m_instances[index];
    const MigProfile p = profileOf(gone);
    for (int i = index; i + 1 < m_count; ++i)
        m_instances[i] = m_instances[i + 1];
    m_instances[--m_count] = {};
    m_memoryMask &= static_cast<std::uint8_t>(~p.memoryMaskAt(gone.start));
    m_computeSlices = static_cast<std::uint8_t>(m_computeSlices - p.computeSlices);
}

std::string MigLayout::describe() const {
    std::string out;
    for (const MigInstance& i : instances()) {
        if (!out.empty()) out += " + ";
        out += std::string(profileOf(i).name) + "@" + std::to_string(i.start);
    }
    return out;
}

MigLayout parseMigLayout(std::string_view text, MigFamily family, int maxInstances) {
    MigLayout layout(family, maxInstances);
    if (trimmed(text).empty()) return layout;
    int itemNumber = 0;
    std::size_t begin = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        // A '+' before "me" belongs to a name ("1g.10gb+me"); no profile name starts "me".
        const bool separator =
            i == text.size() || text[i] == ',' || (text[i] == '+' && text.substr(i + 1, 2) != "me");
        if (!separator) continue;
        const std::string_view item = trimmed(text.substr(begin, i - begin));
        begin = i + 1;
        ++itemNumber;
        const auto fail = [&](const std::string& why) {
            throw std::invalid_argument("MIG layout item " + std::to_string(itemNumber) + " \"" +
                                        detail::escapedForMessage(item) + "\": " + why);
        };
        if (item.empty()) fail("empty (two separators in a row?)");
        const std::size_t at = item.find('@');
        const std::string_view name = trimmed(item.substr(0, at));
        const std::optional<MigProfile> profile = migProfileByName(family, name);
        if (!profile) {
            std::string known;
            for (const MigProfile& p : migProfiles(family))
                known += (known.empty() ? "" : ", ") + std::string(p.name);
            fail("unknown profile \"" + detail::escapedForMessage(name) + "\"; the " +
                 std::string(migFamilyName(family)) + " profiles are " + known);
        }
        MigPlaceResult result;
        if (at == std::string_view::npos) {
            result = layout.place(*profile);
        } else {
            const std::string_view slot = trimmed(item.substr(at + 1));
            int start = -1;
            const auto [end, ec] = std::from_chars(slot.data(), slot.data() + slot.size(), start);
            if (slot.empty() || ec != std::errc() || end != slot.data() + slot.size())
                fail("the slot after '@' must be a whole number, 0–7");
            result = layout.placeAt(*profile, start);
        }
        if (!result.placed()) fail(result.refusal);
    }
    return layout;
}

}  // namespace gpuplan
