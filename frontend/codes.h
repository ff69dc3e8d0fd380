// The finding and diagnostic codes: one constant per code, each a row of code_table() with its severity and
// doc (frontend/codes.cpp). Emitters name a code by its constant, so a typo is a compile error, not a new
// code; tests/frontend/codes_test.cpp checks the table against the README and that no other source file
// spells a code as a string literal.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace cvsim {

namespace codes {
// Input diagnostics (exit 2: a file:line:col: error[CODE] with a caret).
inline constexpr char kParse[] = "E-PARSE";
inline constexpr char kUnsupported[] = "E-UNSUPPORTED";
inline constexpr char kName[] = "E-NAME";
inline constexpr char kType[] = "E-TYPE";
inline constexpr char kOob[] = "E-OOB";
inline constexpr char kCapacity[] = "E-CAPACITY";
inline constexpr char kEntry[] = "E-ENTRY";
inline constexpr char kUsage[] = "E-USAGE";
inline constexpr char kConfig[] = "E-CONFIG";
inline constexpr char kIo[] = "E-IO";
inline constexpr char kJournal[] = "E-JOURNAL";
inline constexpr char kNeedsPypto[] = "E-NEEDS-PYPTO";
inline constexpr char kPypto[] = "E-PYPTO";
inline constexpr char kInternal[] = "E-INTERNAL";
// Findings (exit 1).
inline constexpr char kRaceRaw[] = "E-RACE-RAW";
inline constexpr char kRaceWar[] = "E-RACE-WAR";
inline constexpr char kRaceWaw[] = "E-RACE-WAW";
inline constexpr char kDeadlock[] = "E-DEADLOCK";
inline constexpr char kTimeout[] = "E-TIMEOUT";
inline constexpr char kMismatch[] = "E-MISMATCH";
inline constexpr char kUnwritten[] = "E-UNWRITTEN";
inline constexpr char kNondet[] = "E-NONDET";
inline constexpr char kPipeFree[] = "E-PIPE-FREE";
inline constexpr char kPipeSetup[] = "E-PIPE-SETUP";
inline constexpr char kPipeSlot[] = "E-PIPE-SLOT";
inline constexpr char kV2cLayout[] = "W-V2C-LAYOUT";
inline constexpr char kNonuniformGather[] = "W-NONUNIFORM-GATHER";
inline constexpr char kFlagOverflow[] = "E-FLAG-OVERFLOW";
inline constexpr char kOccupancy[] = "E-OCCUPANCY";
inline constexpr char kV2cUnfenced[] = "E-V2C-UNFENCED";
inline constexpr char kCrash[] = "E-CRASH";
inline constexpr char kUnchecked[] = "E-UNCHECKED";
}  // namespace codes

enum class CodeSeverity : uint8_t { Error, Warning };

struct CodeInfo {
    std::string_view code;
    CodeSeverity severity = CodeSeverity::Error;
    bool finding = false;     // a finding of a run, exit 1 (the README's Findings table)
    bool diagnostic = false;  // an input diagnostic, exit 2 (the README's "Input diagnostics"; E-UNSUPPORTED at
                              // run time too: no verdict)
    std::string_view doc;     // one line
};

// Every code, in the README's order.
const std::vector<CodeInfo>& code_table();
// The row of CODE, nullptr when it is none.
const CodeInfo* find_code(std::string_view code);
// E-RACE-RAW / WAR / WAW.
bool is_race_code(std::string_view code);

}  // namespace cvsim
