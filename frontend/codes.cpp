// The code table (frontend/codes.h): severity, kind and one line of doc per code.
#include "frontend/codes.h"

namespace cvsim {

const std::vector<CodeInfo>& code_table() {
    using enum CodeSeverity;
    static const std::vector<CodeInfo> table = {
        // Findings.
        {codes::kRaceRaw, Error, true, false,
         "a read after a write of overlapping GM bytes on another core, and nothing orders them"},
        {codes::kRaceWar, Error, true, false,
         "a write after a read of overlapping GM bytes on another core, and nothing orders them"},
        {codes::kRaceWaw, Error, true, false,
         "two writes of overlapping GM bytes on two cores, and nothing orders them"},
        {codes::kDeadlock, Error, true, false, "every unfinished core is blocked with nothing in flight"},
        {codes::kTimeout, Error, true, false,
         "the simulated-time (--max-cycles) or wall-time (--timeout) bound was hit"},
        {codes::kMismatch, Error, true, false, "an output differs from the reference interpreter's"},
        {codes::kUnwritten, Error, true, false,
         "the reference stored an output element that no store of the run wrote"},
        {codes::kNondet, Error, true, false, "a schedule's outputs differ from the nominal schedule's"},
        {codes::kOob, Error, true, true,
         "a GM window outside its tensor (at parse time when constant, at run time otherwise)"},
        {codes::kPipeFree, Error, true, false,
         "tfree of a tile never popped, a double free, or a free on another ring"},
        {codes::kPipeSetup, Error, true, false,
         "a ring used without its core's own *_initialize_pipe, or the rings of a cluster initialised inconsistently"},
        {codes::kPipeSlot, Error, true, false, "a push larger than a ring slot"},
        {codes::kV2cLayout, Warning, true, false, "a V2C push in the wrong layout (delivered scrambled)"},
        {codes::kNonuniformGather, Warning, true, false, "both AIV lanes pushing different data into one split-0 slot"},
        {codes::kFlagOverflow, Error, true, false, "more pending sync_sets than the 4-bit flag counter holds"},
        {codes::kOccupancy, Error, true, false, "a hard syncall launched on fewer clusters than the chip has"},
        {codes::kV2cUnfenced, Error, true, false, "--v2c reject: an unordered V2C dependency (at the cube load)"},
        {codes::kCrash, Error, true, false, "explore: the simulator's worker process died or hung in this schedule"},
        {codes::kUnchecked, Error, true, false,
         "the reference interpreter could not run the kernel, so the outputs were not compared"},
        // Input diagnostics.
        {codes::kParse, Error, false, true, "the kernel file is not valid DSL"},
        {codes::kUnsupported, Error, false, true, "a construct cvsim does not read or does not model"},
        {codes::kName, Error, false, true, "an unknown or duplicate name"},
        {codes::kType, Error, false, true, "a type, shape, dtype or memory space that does not fit its use"},
        {codes::kCapacity, Error, false, true, "tiles over a buffer's capacity, or the GM of a run over cvsim's bound"},
        {codes::kEntry, Error, false, true, "no entry to launch, or --entry names none"},
        {codes::kUsage, Error, false, true, "a bad command line"},
        {codes::kConfig, Error, false, true, "a bad --config file or --set parameter"},
        {codes::kIo, Error, false, true, "a file cannot be read or written"},
        {codes::kJournal, Error, false, true,
         "a --jsonl/--merge file that is not the journal of this kernel and these options"},
        {codes::kNeedsPypto, Error, false, true, "a PyPTO kernel source where PyPTO is not importable"},
        {codes::kPypto, Error, false, true, "PyPTO could not compile the source, or the bridge script is missing"},
        {codes::kInternal, Error, false, true, "an invariant of cvsim itself broke: a bug to report"},
    };
    return table;
}

const CodeInfo* find_code(std::string_view code) {
    for (const auto& c : code_table())
        if (c.code == code) return &c;
    return nullptr;
}

bool is_race_code(std::string_view code) {
    return code == codes::kRaceRaw || code == codes::kRaceWar || code == codes::kRaceWaw;
}

}  // namespace cvsim
