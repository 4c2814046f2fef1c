// MIG geometry against NVIDIA's MIG User Guide tables. Each expected value is worked out in
// the comment beside it from the reference table (starts: 1g 0–6, 1g+me 0–6, 1g with 2 memory
// slices 0/2/4/6, 2g 0/2/4, 3g 0/4, 4g 0, 7g 0) and, for place(), from the auto-placement
// rule: of the free valid starts, the one blocking the fewest still-free placements of the
// family's 25 (7 + 7 + 4 + 3 + 2 + 1 + 1), ties to the lowest start.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <type_traits>
#include <vector>

#include "gpuplan/model/mig_geometry.hpp"
#include "gpuplan/scenario_io/scenario_io.hpp"
#include "test_support.hpp"

using namespace gpuplan;
using Catch::Matchers::Contains;

namespace {
constexpr MigFamily k80 = MigFamily::Gpu80GB;
constexpr MigFamily k40 = MigFamily::A100_40GB;

MigProfile profile(MigFamily family, std::string_view name) {
    const std::optional<MigProfile> p = migProfileByName(family, name);
    REQUIRE(p);
    return *p;
}

/// Places `names` one by one with place() and returns the starts chosen (-1 = refused).
std::vector<int> placeAll(MigLayout& layout, std::initializer_list<std::string_view> names) {
    std::vector<int> starts;
    for (std::string_view name : names)
        starts.push_back(layout.place(profile(layout.family(), name)).start);
    return starts;
}
}  // namespace

TEST_CASE("MIG profile tables are the reference's", "[mig]") {
    // Shape columns, the same for every family: id, memory slices, compute slices, max count,
    // valid starts (bit s = slot s).
    struct Row {
        int id, memory, compute, max;
        unsigned starts;
    };
    const Row rows[] = {{19, 1, 1, 7, 0b0111'1111}, {20, 1, 1, 1, 0b0111'1111},
                        {15, 2, 1, 4, 0b0101'0101}, {14, 2, 2, 3, 0b0001'0101},
                        {9, 4, 3, 2, 0b0001'0001},  {5, 4, 4, 1, 0b0000'0001},
                        {0, 8, 7, 1, 0b0000'0001}};
    const std::vector<std::vector<std::string_view>> names{
        {"1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"},
        {"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"},
        {"1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"},
        {"1g.23gb", "1g.23gb+me", "1g.45gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb"}};
    const MigFamily families[] = {k40, k80, MigFamily::H200_141GB, MigFamily::B200_180GB};
    for (std::size_t f = 0; f < 4; ++f) {
        const auto profiles = migProfiles(families[f]);
        REQUIRE(profiles.size() == 7);
        for (std::size_t i = 0; i < 7; ++i) {
            const MigProfile& p = profiles[i];
            CHECK(p.name == names[f][i]);
            CHECK(p.id == rows[i].id);
            CHECK(p.memorySlices == rows[i].memory);
            CHECK(p.computeSlices == rows[i].compute);
            CHECK(p.maxCount == rows[i].max);
            CHECK(p.startMask == rows[i].starts);
            CHECK(migProfileById(families[f], p.id)->name == p.name);
            CHECK(migProfileByName(families[f], p.name)->id == p.id);
        }
    }
    // Memory from the name: 3g.40gb = 40, 7g.141gb = 141, 1g.5gb+me = 5.
    CHECK(profile(k80, "3g.40gb").memoryGb == 40);
    CHECK(profile(MigFamily::H200_141GB, "7g.141gb").memoryGb == 141);
    CHECK(profile(k40, "1g.5gb+me").memoryGb == 5);
    CHECK_FALSE(migProfileByName(k80, "3g.20gb"));  // an A100 40GB name
    CHECK_FALSE(migProfileByName(k80, "MIG 3g.40gb"));
    CHECK_FALSE(migProfileById(k80, 1));
}

TEST_CASE("MIG family of each catalog GPU", "[mig]") {
    // By memory with migMaxInstances > 0: 40 → A100 40GB; 80 → the 80 GB names; 141 → H200;
    // 180 → B200. H100 NVL (94 GB) and GB200 (186 GB) have names the reference does not list;
    // L40S, L4 and MI300X have migMaxInstances 0.
    const gpuplan::Catalog catalog =
        gpuplan::loadCatalog(gpuplan::test::presetsDir() / "catalog" / "catalog.json");
    const std::map<std::string, std::optional<MigFamily>> want{{"a100-40gb-sxm", k40},
                                                               {"a100-80gb-sxm", k80},
                                                               {"h100-sxm", k80},
                                                               {"h100-pcie", k80},
                                                               {"h100-nvl", std::nullopt},
                                                               {"h200-sxm", MigFamily::H200_141GB},
                                                               {"b200", MigFamily::B200_180GB},
                                                               {"gb200", std::nullopt},
                                                               {"l40s", std::nullopt},
                                                               {"l4", std::nullopt},
                                                               {"mi300x", std::nullopt}};
    for (const gpuplan::GpuModel& gpu : catalog.gpuModels) {
        INFO(gpu.id);
        REQUIRE(want.count(gpu.id) == 1);
        CHECK(migFamilyFor(gpu) == want.at(gpu.id));
    }
    CHECK(migFamilyFor(80, 0) == std::nullopt);  // 80 GB without MIG
    CHECK(migFamilyFor(80, 7) == k80);
}

TEST_CASE("smallestProfileWithMemory: fewest memory slices, then fewest compute", "[mig]") {
    const auto smallest = [](MigFamily f, double gb) {
        const auto p = smallestProfileWithMemory(f, gb);
        return p ? std::string(p->name) : std::string("none");
    };
    // A100 40GB: 5 → 1g.5gb (1 slice; not +me, same shape but later). 6 → 1g.10gb (2 memory
    // slices, 1 compute) before 2g.10gb (2 compute). 11 → 3g.20gb (4 slices, 3 compute)
    // before 4g.20gb. 21 → 7g.40gb. 41 → nothing.
    CHECK(smallest(k40, 5) == "1g.5gb");
    CHECK(smallest(k40, 6) == "1g.10gb");
    CHECK(smallest(k40, 11) == "3g.20gb");
    CHECK(smallest(k40, 21) == "7g.40gb");
    CHECK(smallest(k40, 41) == "none");
    // 80 GB: 0 → the smallest, 1g.10gb; 15 → 1g.20gb; 20.5 → 3g.40gb; 40 → 3g.40gb; 80 → 7g.
    CHECK(smallest(k80, 0) == "1g.10gb");
    CHECK(smallest(k80, 15) == "1g.20gb");
    CHECK(smallest(k80, 20.5) == "3g.40gb");
    CHECK(smallest(k80, 40) == "3g.40gb");
    CHECK(smallest(k80, 80) == "7g.80gb");
    // H200: 18 → 1g.18gb; 19 → 1g.35gb; 36 → 3g.71gb; 72 → 7g.141gb.
    CHECK(smallest(MigFamily::H200_141GB, 18) == "1g.18gb");
    CHECK(smallest(MigFamily::H200_141GB, 19) == "1g.35gb");
    CHECK(smallest(MigFamily::H200_141GB, 36) == "3g.71gb");
    CHECK(smallest(MigFamily::H200_141GB, 72) == "7g.141gb");
    // B200: 23 → 1g.23gb; 45 → 1g.45gb; 46 → 3g.90gb; 180 → 7g.180gb; 181 → nothing.
    CHECK(smallest(MigFamily::B200_180GB, 23) == "1g.23gb");
    CHECK(smallest(MigFamily::B200_180GB, 45) == "1g.45gb");
    CHECK(smallest(MigFamily::B200_180GB, 46) == "3g.90gb");
    CHECK(smallest(MigFamily::B200_180GB, 180) == "7g.180gb");
    CHECK(smallest(MigFamily::B200_180GB, 181) == "none");
}

TEST_CASE("MIG 4g + 3g fills the GPU; a second 4g never fits", "[mig]") {
    // 4g@0 takes memory 0–3 (4 compute), 3g@4 takes 4–7 (3 compute): 8 slices, 7 compute.
    MigLayout gpu(k80);
    CHECK(gpu.placeAt(profile(k80, "4g.40gb"), 0).placed());
    CHECK(gpu.placeAt(profile(k80, "3g.40gb"), 4).placed());
    CHECK(gpu.memoryMask() == 0xFF);
    CHECK(gpu.computeSlicesUsed() == 7);
    CHECK(gpu.describe() == "4g.40gb@0 + 3g.40gb@4");
    CHECK(gpu.instanceAt(3) == 0);
    CHECK(gpu.instanceAt(4) == 1);

    // Greedy gives the same: 4g has one start (0); then 3g's only free start is 4.
    MigLayout greedy(k80);
    CHECK(placeAll(greedy, {"4g.40gb", "3g.40gb"}) == std::vector<int>{0, 4});
    CHECK(greedy == gpu);

    // 4g + 4g: at most one 4g, and 4g can only start at 0.
    MigLayout two(k80);
    CHECK(two.place(profile(k80, "4g.40gb")).start == 0);
    CHECK(two.place(profile(k80, "4g.40gb")).refusal == "at most 1 × 4g.40gb per GPU");
    CHECK(two.placeAt(profile(k80, "4g.40gb"), 4).refusal ==
          "4g.40gb cannot start at slot 4; it can only start at slot 0");
}

TEST_CASE("MIG 3g at slot 0 leaves no room for a 4g", "[mig]") {
    // 3g@0 takes 0–3; 4g needs 0–3.
    MigLayout gpu(k80);
    REQUIRE(gpu.placeAt(profile(k80, "3g.40gb"), 0).placed());
    CHECK(gpu.place(profile(k80, "4g.40gb")).refusal ==
          "4g.40gb can only start at slot 0, which 3g.40gb@0 holds");
    CHECK(gpu.placeAt(profile(k80, "4g.40gb"), 0).refusal ==
          "4g.40gb@0 needs memory slices 0–3, which 3g.40gb@0 holds");
    CHECK(gpu.describe() == "3g.40gb@0");  // refusals change nothing
}

TEST_CASE("MIG three 2g fit; a fourth cannot start at 6", "[mig]") {
    // Empty GPU, 2g at 0 blocks 9 free placements (1g×2, +me×2, 1g.20gb, 2g, 3g@0, 4g, 7g),
    // at 2 also 9, at 4 only 8 (3g@4 instead of 3g@0 and 4g) → 4. Then 0 and 2 block 8 each →
    // 0, then 2.
    MigLayout gpu(k80);
    CHECK(placeAll(gpu, {"2g.20gb", "2g.20gb", "2g.20gb"}) == std::vector<int>{4, 0, 2});
    CHECK(gpu.describe() == "2g.20gb@0 + 2g.20gb@2 + 2g.20gb@4");
    // Slices 6–7 are free, but no 2g starts at 6.
    CHECK(gpu.memoryMask() == 0b0011'1111);
    CHECK(gpu.freeStarts(profile(k80, "2g.20gb")) == 0);
    CHECK(gpu.placeAt(profile(k80, "2g.20gb"), 6).refusal ==
          "2g.20gb cannot start at slot 6; it can start at slots 0, 2, 4");
    CHECK(gpu.place(profile(k80, "2g.20gb")).refusal == "at most 3 × 2g.20gb per GPU");

    // With every 2g start half taken by a 1g, the refusal names who holds them.
    MigLayout holes(k80);
    for (int s : {1, 3, 5})
        REQUIRE(holes.placeAt(profile(k80, "1g.10gb"), s).placed());
    CHECK(holes.place(profile(k80, "2g.20gb")).refusal ==
          "2g.20gb can start at slots 0, 2, 4; all are taken (by 1g.10gb@1, 1g.10gb@3 and "
          "1g.10gb@5)");
    CHECK(holes.placeAt(profile(k80, "1g.20gb"), 2).refusal ==
          "1g.20gb@2 needs memory slices 2–3, which 1g.10gb@3 holds");
}

TEST_CASE("MIG 7×1g strands memory slice 7", "[mig]") {
    // Empty: 1g at 6 blocks 5 free placements (1g, +me, 1g.20gb@6, 3g@4, 7g), at 4 or 5 six
    // (2g@4 too), at 0–3 seven (3g@0, 4g) → 6. Then 4 and 5 block 4 (1g, +me, 1g.20gb@4, 2g@4),
    // 0–3 block 6 → 4. Then 5 blocks 2 → 5. Then 0–3 tie at 6 → 0; then 1 blocks 2 (1g, +me)
    // against 4 for 2 and 3 → 1; then 2, then 3.
    MigLayout gpu(k80);
    CHECK(placeAll(gpu, {"1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb",
                         "1g.10gb"}) == std::vector<int>{6, 4, 5, 0, 1, 2, 3});
    CHECK(gpu.size() == 7);
    CHECK(gpu.computeSlicesUsed() == 7);
    // Slice 7 is free, but no profile starts at 7: 70 of 80 GB usable.
    CHECK(gpu.memoryMask() == 0b0111'1111);
    CHECK(gpu.memorySlicesUsed() == 7);
    for (const MigProfile& p : migProfiles(k80)) {
        INFO(p.name);
        CHECK(gpu.freeStarts(p) == 0);
        CHECK(gpu.autoStart(p) == -1);
        CHECK_FALSE(gpu.place(p).placed());
    }
    CHECK(gpu.place(profile(k80, "1g.10gb")).refusal == "at most 7 instances per GPU");
}

TEST_CASE("MIG 4×1g.20gb fill memory with 3 compute slices idle", "[mig]") {
    // Empty: 1g.20gb at 6 blocks 5 (1g@6, +me@6, 1g.20gb@6, 3g@4, 7g), at 4 eight, at 0 or 2
    // nine → 6 (what dra-driver-nvidia-gpu #1018 logged for `-cgi 1g.20gb`: start 6). Then 4
    // blocks 6, 0 and 2 eight → 4; then 0 and 2 tie → 0; then 2.
    MigLayout gpu(k80);
    CHECK(placeAll(gpu, {"1g.20gb", "1g.20gb", "1g.20gb", "1g.20gb"}) ==
          std::vector<int>{6, 4, 0, 2});
    CHECK(gpu.memoryMask() == 0xFF);
    CHECK(gpu.computeSlicesUsed() == 4);
    CHECK(MigLayout::kComputeSlices - gpu.computeSlicesUsed() == 3);
    CHECK(gpu.place(profile(k80, "1g.10gb")).refusal ==
          "1g.10gb can start at slots 0, 1, 2, 3, 4, 5, 6; all are taken (by 1g.20gb@0, "
          "1g.20gb@2, 1g.20gb@4 and 1g.20gb@6)");
    CHECK(gpu.place(profile(k80, "1g.20gb")).refusal == "at most 4 × 1g.20gb per GPU");
}

TEST_CASE("MIG creation order: the User Guide's A100 40GB examples", "[mig]") {
    // MIG User Guide, Getting Started → Instance Geometry, listings by `nvidia-smi mig -lgi`.
    SECTION("-cgi 19,19,14,9 fails") {
        // 1g → 6 (as above). 1g → 4 (ties with 5). 2g: starts 0 and 2 each block 8 (1g×2,
        // +me×2, 1g.10gb, 2g, 3g@0, 4g) → 0. 3g: 0 overlaps 2g@0, 4 overlaps 1g@4.
        MigLayout gpu(k40);
        CHECK(placeAll(gpu, {"1g.5gb", "1g.5gb", "2g.10gb", "3g.20gb"}) ==
              std::vector<int>{6, 4, 0, -1});
        CHECK(gpu.place(profile(k40, "3g.20gb")).refusal ==
              "3g.20gb can start at slots 0, 4; all are taken (by 2g.10gb@0, 1g.5gb@4 and "
              "1g.5gb@6)");
    }
    SECTION("-cgi 9,19,14,19 works: 1g@0, 1g@1, 2g@2, 3g@4 as the guide lists") {
        // 3g: 0 blocks 15, 4 blocks 11 (no 4g) → 4. 1g: 0–3 each block 6 → 0. 2g: 0 is
        // taken → 2. 1g: only 1 is left.
        MigLayout gpu(k40);
        CHECK(placeAll(gpu, {"3g.20gb", "1g.5gb", "2g.10gb", "1g.5gb"}) ==
              std::vector<int>{4, 0, 2, 1});
        CHECK(gpu.describe() == "1g.5gb@0 + 1g.5gb@1 + 2g.10gb@2 + 3g.20gb@4");
    }
    SECTION("-cgi 19,14,5: 1g@6, 2g@4, 4g@0") {
        // 1g → 6. 2g: 4 blocks 6 (1g@4, 1g@5, +me@4, +me@5, 1g.10gb@4, 2g@4; 3g@4 and 7g
        // are already blocked by the 1g), 0 or 2 block 8 (with 3g@0 and 4g) → 4. 4g: only 0.
        MigLayout gpu(k40);
        CHECK(placeAll(gpu, {"1g.5gb", "2g.10gb", "4g.20gb"}) == std::vector<int>{6, 4, 0});
    }
    SECTION("-cgi 14,19,19,19,19,19: 2g@4, then 1g@6, 0, 1, 2, 3") {
        // 2g → 4 (8 against 9). 1g: 6 blocks 3 (1g, +me, 1g.10gb@6), 0–3 block 6 → 6. Then
        // 0–3 tie → 0; then 1 blocks 2 against 4 → 1; then 2; then 3.
        MigLayout gpu(k40);
        CHECK(placeAll(gpu, {"2g.10gb", "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb", "1g.5gb"}) ==
              std::vector<int>{4, 6, 0, 1, 2, 3});
    }
}

TEST_CASE("MIG 3g + 3g leaves one compute slice idle", "[mig]") {
    // 3g: 4 blocks fewer than 0 → 4; then 0. Memory full, 3 + 3 = 6 of 7 compute.
    MigLayout gpu(k80);
    CHECK(placeAll(gpu, {"3g.40gb", "3g.40gb"}) == std::vector<int>{4, 0});
    CHECK(gpu.memoryMask() == 0xFF);
    CHECK(gpu.computeSlicesUsed() == 6);
    CHECK(gpu.place(profile(k80, "3g.40gb")).refusal == "at most 2 × 3g.40gb per GPU");
    CHECK_FALSE(gpu.place(profile(k80, "1g.10gb")).placed());
}

TEST_CASE("MIG limits: +me once, maxInstances from the catalog, foreign profiles", "[mig]") {
    MigLayout gpu(k80);
    CHECK(gpu.place(profile(k80, "1g.10gb+me")).placed());
    CHECK(gpu.place(profile(k80, "1g.10gb+me")).refusal == "at most 1 × 1g.10gb+me per GPU");
    CHECK(gpu.countOf(profile(k80, "1g.10gb+me")) == 1);

    // An A30-like limit of 4: the fifth 1g is refused with memory to spare.
    MigLayout four(k80, 4);
    CHECK(placeAll(four, {"1g.10gb", "1g.10gb", "1g.10gb", "1g.10gb"}) ==
          std::vector<int>{6, 4, 5, 0});
    CHECK(four.place(profile(k80, "1g.10gb")).refusal == "at most 4 instances per GPU");

    CHECK_THROWS_AS(MigLayout(k80, 0), std::invalid_argument);
    CHECK_THROWS_AS(MigLayout(k80, 8), std::invalid_argument);
    CHECK_THROWS_AS(gpu.place(profile(k40, "3g.20gb")), std::invalid_argument);
    CHECK(gpu.placeAt(profile(k80, "1g.10gb"), 8).refusal == "no memory slot 8; slots are 0–7");
}

TEST_CASE("MIG remove, then place again", "[mig]") {
    MigLayout gpu = parseMigLayout("4g.40gb@0 + 3g.40gb@4", k80);
    const MigLayout full = gpu;
    gpu.remove(0);  // the 4g: slices 0–3 and 4 compute slices free again
    CHECK(gpu.describe() == "3g.40gb@4");
    CHECK(gpu.memoryMask() == 0xF0);
    CHECK(gpu.computeSlicesUsed() == 3);
    // 2g: 0 and 2 each block 8 → 0; then 2. The 4g's slot is now held by both.
    CHECK(placeAll(gpu, {"2g.20gb", "2g.20gb"}) == std::vector<int>{0, 2});
    CHECK(gpu.place(profile(k80, "4g.40gb")).refusal ==
          "4g.40gb can only start at slot 0, which 2g.20gb@0 and 2g.20gb@2 hold");
    gpu.remove(1);  // 2g@2
    CHECK(gpu.instanceAt(2) == -1);
    CHECK(gpu.describe() == "2g.20gb@0 + 3g.40gb@4");
    gpu.remove(0);
    CHECK_THROWS_AS(gpu.remove(1), std::out_of_range);
    CHECK(gpu.place(profile(k80, "4g.40gb")).start == 0);
    CHECK(gpu == full);
}

TEST_CASE("MIG layout text: describe and parse round trip", "[mig]") {
    const MigLayout a = parseMigLayout("4g.40gb@0,3g.40gb@4", k80);
    CHECK(a.describe() == "4g.40gb@0 + 3g.40gb@4");
    CHECK(parseMigLayout(a.describe(), k80) == a);
    // Names only are placed as place() would, in order: the guide's 9,19,14,19.
    CHECK(parseMigLayout(" 3g.40gb, 1g.10gb ,2g.20gb,1g.10gb ", k80).describe() ==
          "1g.10gb@0 + 1g.10gb@1 + 2g.20gb@2 + 3g.40gb@4");
    // The '+' of "+me" is part of the name. After +me@3, a 1g at 2 blocks only 2 free
    // placements (1g@2, +me@2); at 0, 1 or 6 four; at 4 or 5 five → 2.
    const MigLayout me = parseMigLayout("1g.10gb+me@3 + 1g.10gb", k80);
    CHECK(me.describe() == "1g.10gb@2 + 1g.10gb+me@3");
    CHECK(parseMigLayout(me.describe(), k80) == me);
    CHECK(parseMigLayout("", k80).empty());
    CHECK(parseMigLayout("  ", k80).describe().empty());
    CHECK(parseMigLayout("3g.40gb @ 4", k80).describe() == "3g.40gb@4");
    CHECK(parseMigLayout("1g.10gb", k80, 1).maxInstances() == 1);
}

TEST_CASE("MIG layout text: errors name the item and the reason", "[mig]") {
    const auto error = [](std::string_view text) {
        try {
            parseMigLayout(text, k80);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error("4g.40gb@0,,3g.40gb@4") ==
          "MIG layout item 2 \"\": empty (two separators in a row?)");
    CHECK(error("3g.20gb") ==
          "MIG layout item 1 \"3g.20gb\": unknown profile \"3g.20gb\"; the A100 80GB / H100 "
          "80GB profiles are 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb");
    CHECK(error("3g.40gb@x") ==
          "MIG layout item 1 \"3g.40gb@x\": the slot after '@' must be a whole number, 0–7");
    CHECK(error("3g.40gb@") ==
          "MIG layout item 1 \"3g.40gb@\": the slot after '@' must be a "
          "whole number, 0–7");
    CHECK(error("3g.40gb@9") == "MIG layout item 1 \"3g.40gb@9\": no memory slot 9; slots are 0–7");
    CHECK(error("2g.20gb@1") ==
          "MIG layout item 1 \"2g.20gb@1\": 2g.20gb cannot start at slot "
          "1; it can start at slots 0, 2, 4");
    CHECK(error("4g.40gb@0 + 4g.40gb@0") ==
          "MIG layout item 2 \"4g.40gb@0\": at most 1 × 4g.40gb per GPU");
    CHECK(error("3g.40gb@0, 4g.40gb") ==
          "MIG layout item 2 \"4g.40gb\": 4g.40gb can only start at slot 0, which 3g.40gb@0 "
          "holds");
    CHECK(error("1g.10gb@0, 1g.10gb@1, 2g.20gb@0") ==
          "MIG layout item 3 \"2g.20gb@0\": 2g.20gb@0 needs memory slices 0–1, which "
          "1g.10gb@0 and 1g.10gb@1 hold");
    CHECK_THAT(error("7g.80gb\x1b[31m"), Contains("\\u001b"));  // no raw escape in messages
}

TEST_CASE("MIG layout is a small value", "[mig]") {
    // One per GPU in a 100k-GPU fleet: fixed size, no heap, copied with memcpy.
    STATIC_REQUIRE(std::is_trivially_copyable_v<MigLayout>);
    CHECK(sizeof(MigLayout) <= 24);
}

TEST_CASE("MIG every greedy sequence of up to 7 placements keeps the rules", "[mig]") {
    // Depth-first over all sequences of a family's 7 profiles, for each family (a refused step
    // changes nothing, so its continuations repeat a shorter sequence and are skipped). After
    // every step, recomputed from the instances alone: memory slices disjoint and their union
    // the layout's mask, starts valid and ascending, counts within limits, compute slices the
    // sum and at most 7. place() refuses exactly when a count limit is reached or no valid
    // start has its memory free, and then changes nothing.
    for (const MigFamily family : {k40, k80, MigFamily::H200_141GB, MigFamily::B200_180GB}) {
        const auto profiles = migProfiles(family);
        std::set<std::string> layouts;
        const auto memoryOf = [](const MigLayout& gpu) {
            std::uint8_t memory = 0;
            for (const MigInstance& in : gpu.instances())
                memory |= gpu.profileOf(in).memoryMaskAt(in.start);
            return memory;
        };
        const auto check = [&](const MigLayout& gpu) {
            std::uint8_t memory = 0;
            int compute = 0, previousStart = -1;
            for (const MigInstance& in : gpu.instances()) {
                const MigProfile p = gpu.profileOf(in);
                REQUIRE(p.canStartAt(in.start));
                REQUIRE(in.start > previousStart);
                REQUIRE((memory & p.memoryMaskAt(in.start)) == 0);
                REQUIRE(gpu.countOf(p) <= p.maxCount);
                memory |= p.memoryMaskAt(in.start);
                compute += p.computeSlices;
                previousStart = in.start;
            }
            REQUIRE(gpu.size() <= gpu.maxInstances());
            REQUIRE(memory == gpu.memoryMask());
            REQUIRE(compute == gpu.computeSlicesUsed());
            REQUIRE(compute <= MigLayout::kComputeSlices);
        };
        const auto explore = [&](const auto& self, const MigLayout& gpu, int depth) -> void {
            if (depth == 7) return;
            const std::uint8_t memory = memoryOf(gpu);
            for (const MigProfile& p : profiles) {
                bool startFree = false;
                for (int s = 0; s < MigLayout::kMemorySlices; ++s)
                    startFree |= p.canStartAt(s) && (p.memoryMaskAt(s) & memory) == 0;
                const bool room =
                    gpu.size() < gpu.maxInstances() && gpu.countOf(p) < p.maxCount && startFree;
                MigLayout next = gpu;
                const MigPlaceResult r = next.place(p);
                REQUIRE(r.placed() == room);
                if (!r.placed()) {
                    REQUIRE(next == gpu);
                    continue;
                }
                REQUIRE((p.memoryMaskAt(r.start) & memory) == 0);
                check(next);
                layouts.insert(next.describe());
                self(self, next, depth + 1);
            }
        };
        explore(explore, MigLayout(family), 0);
        // Every layout reached reads back from its text.
        for (const std::string& text : layouts)
            REQUIRE(parseMigLayout(text, family).describe() == text);
        if (family != k80) continue;
        // The reference's layouts are among those reached.
        for (const char* text :
             {"7g.80gb@0", "4g.40gb@0 + 3g.40gb@4", "3g.40gb@0 + 3g.40gb@4",
              "2g.20gb@0 + 2g.20gb@2 + 2g.20gb@4", "1g.20gb@0 + 1g.20gb@2 + 1g.20gb@4 + 1g.20gb@6",
              "1g.10gb@0 + 1g.10gb@1 + 1g.10gb@2 + 1g.10gb@3 + 1g.10gb@4 + 1g.10gb@5 + 1g.10gb@6"})
            CHECK(layouts.count(text) == 1);
    }
}

namespace {

/// distributeMigInstances' counts from "3g.40gb" → 8 pairs.
std::vector<MigProfileCount> counts(MigFamily family,
                                    std::initializer_list<std::pair<std::string_view, int>> c) {
    std::vector<MigProfileCount> out;
    for (const auto& [name, n] : c)
        out.push_back({profile(family, name), n});
    return out;
}

}  // namespace

TEST_CASE("MIG instances spread over a node's GPUs: the trial's mixed-strategy node", "[mig]") {
    // 8 H100 80GB reporting 8 × 3g.40gb, 4 × 2g.20gb, 14 × 1g.10gb (26 instances; compute
    // 24 + 8 + 14 = 46 of 56 slices, memory 32 + 8 + 14 = 54 of 64). Largest first, each on
    // the GPU with the most free memory slices, lowest index among equals:
    //   8 × 3g (4 memory slices): one on each GPU (3g@4: it blocks fewer placements than @0);
    //     every GPU then has 4 memory slices used.
    //   4 × 2g: GPUs 0, 1, 2, 3 (each takes one and then has 6 used, the rest still 4).
    //   14 × 1g: GPUs 4–7 (4 used) first, one each → 5 used; again GPUs 4–7 → 6 used; now all
    //     eight have 6 used: GPUs 0–5 take the last six → 7 used.
    // So GPUs 0–3: 3g + 2g + 1g; GPUs 4–5: 3g + 3 × 1g; GPUs 6–7: 3g + 2 × 1g, and
    // 4 + 2 × 3 + 2 × 2 = 14 × 1g: every instance is kept, on real layouts (each ≤ 7 compute
    // slices, 3g@4 with the 2g and 1g in slots 0–3). Each profile's count ÷ 8 GPUs, remainders
    // dropped, would give 3g + 1g per GPU and drop 4 × 2g and 6 × 1g.
    const MigDistribution d = distributeMigInstances(
        k80, 7, 8, counts(k80, {{"1g.10gb", 14}, {"2g.20gb", 4}, {"3g.40gb", 8}}));
    CHECK(d.leftOut.empty());
    const std::string a = "3g.40gb, 2g.20gb, 1g.10gb";
    const std::string b = "3g.40gb, 1g.10gb, 1g.10gb, 1g.10gb";
    const std::string c = "3g.40gb, 1g.10gb, 1g.10gb";
    CHECK(d.layoutTexts == std::vector<std::string>{a, a, a, a, b, b, c, c});
    CHECK(d.searchSteps == 0);  // the balanced spread held them all
    std::map<std::string, int> total;
    for (const std::string& text : d.layoutTexts) {
        const MigLayout layout = parseMigLayout(text, k80);  // each a layout a GPU holds
        for (const MigInstance& i : layout.instances())
            ++total[std::string(layout.profileOf(i).name)];
    }
    CHECK(total == std::map<std::string, int>{{"1g.10gb", 14}, {"2g.20gb", 4}, {"3g.40gb", 8}});
}

TEST_CASE("MIG instances that divide evenly give every GPU the same layout", "[mig]") {
    // 2 × 3g.20gb, 2 × 2g.10gb, 2 × 1g.5gb on 2 A100 40GB: each profile's instances alternate
    // between the GPUs (the one with more free memory first, GPU 0 on a tie): one of each.
    const MigDistribution d = distributeMigInstances(
        k40, 7, 2, counts(k40, {{"1g.5gb", 2}, {"3g.20gb", 2}, {"2g.10gb", 2}}));
    CHECK(d.leftOut.empty());
    CHECK(d.layoutTexts ==
          std::vector<std::string>{"3g.20gb, 2g.10gb, 1g.5gb", "3g.20gb, 2g.10gb, 1g.5gb"});
}

TEST_CASE("MIG instances the balanced spread cannot hold are found by the search", "[mig]") {
    // 2 H100 80GB with 4g.40gb, 3g.40gb, 2g.20gb, 1g.20gb and 4 × 1g.10gb: compute 4 + 3 + 2 +
    // 1 + 4 = 14 = 2 × 7 and memory 4 + 4 + 2 + 2 + 4 = 16 = 2 × 8, so only a full pack holds
    // them. Balanced: 4g → GPU 0 (@0); 3g → GPU 1 (more free; @4); 2g → GPU 0 (tie; @4);
    // 1g.20gb → GPU 1 (4 used against 6; slots 0–1); 1g.10gb → GPU 0 (tie at 6; slot 6), GPU 1
    // (slot 2), GPU 1 again (slot 3; GPU 0's free slot 7 is no 1g's start), and the fourth
    // fits nowhere. The search moves the 1g.20gb to slots 6–7 of GPU 0 (the only 2-slice
    // profile that starts at 6) and the four 1g.10gb to slots 0–3 of GPU 1.
    const auto c = counts(
        k80, {{"4g.40gb", 1}, {"3g.40gb", 1}, {"2g.20gb", 1}, {"1g.20gb", 1}, {"1g.10gb", 4}});
    const MigDistribution balanced = distributeMigInstances(k80, 7, 2, c, 0);  // no search
    CHECK(balanced.layoutTexts == std::vector<std::string>{"4g.40gb, 2g.20gb, 1g.10gb",
                                                           "3g.40gb, 1g.20gb, 1g.10gb, 1g.10gb"});
    REQUIRE(balanced.leftOut.size() == 1);
    CHECK(balanced.leftOut[0].profile.name == "1g.10gb");
    CHECK(balanced.leftOut[0].count == 1);
    const MigDistribution d = distributeMigInstances(k80, 7, 2, c);
    CHECK(d.leftOut.empty());
    CHECK(d.layoutTexts == std::vector<std::string>{"4g.40gb, 2g.20gb, 1g.20gb",
                                                    "3g.40gb, 1g.10gb, 1g.10gb, 1g.10gb, 1g.10gb"});
    CHECK(d.searchSteps > 0);
    CHECK(d.searchSteps <= kMigSearchSteps);
    for (const std::string& text : d.layoutTexts)
        CHECK_NOTHROW(parseMigLayout(text, k80));
}

TEST_CASE("MIG instances no layout holds are left out and named", "[mig]") {
    // 3 × 7g.80gb on 2 GPUs: a 7g takes a whole GPU, so one is left over whatever the order.
    const MigDistribution d = distributeMigInstances(k80, 7, 2, counts(k80, {{"7g.80gb", 3}}));
    CHECK(d.layoutTexts == std::vector<std::string>{"7g.80gb", "7g.80gb"});
    REQUIRE(d.leftOut.size() == 1);
    CHECK(d.leftOut[0].profile.name == "7g.80gb");
    CHECK(d.leftOut[0].count == 1);
    // Two +me on one GPU: at most one +me per GPU (maxCount 1).
    const MigDistribution me = distributeMigInstances(k80, 7, 1, counts(k80, {{"1g.10gb+me", 2}}));
    CHECK(me.layoutTexts == std::vector<std::string>{"1g.10gb+me"});
    REQUIRE(me.leftOut.size() == 1);
    CHECK(me.leftOut[0].count == 1);
    // More instances than GPUs have slots: no search (8 × 1g on one GPU of at most 7).
    const MigDistribution many = distributeMigInstances(k80, 7, 1, counts(k80, {{"1g.10gb", 8}}));
    CHECK(many.searchSteps == 0);
    CHECK(many.leftOut[0].count == 1);
    CHECK_THROWS_AS(distributeMigInstances(k80, 7, 0, counts(k80, {{"1g.10gb", 1}})),
                    std::invalid_argument);
    CHECK_THROWS_AS(distributeMigInstances(k80, 7, 2, counts(k40, {{"1g.5gb", 1}})),
                    std::invalid_argument);
}
