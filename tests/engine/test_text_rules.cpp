// What text from a file may hold (names) and how it is printed in messages.
#include <catch2/catch.hpp>
#include <string>

#include "io/text_rules.hpp"

using gpuplan::detail::escapedForMessage;
using gpuplan::detail::nameProblem;

TEST_CASE("text in a message is escaped, never cut: controls as \\u00XX, non-UTF-8 as \\xXX") {
    using namespace std::string_literals;
    CHECK(escapedForMessage("plain name") == "plain name");
    // NUL, ESC and DEL are control characters, written as JSON writes them.
    CHECK(escapedForMessage("se\0ed"s) == "se\\u0000ed");
    CHECK(escapedForMessage("\x1b[31mred") == "\\u001b[31mred");
    CHECK(escapedForMessage("a\x7f") == "a\\u007f");
    // U+0085 (NEL, a C1 control) is two bytes in UTF-8, c2 85: one escape.
    CHECK(escapedForMessage("a\xc2\x85z") == "a\\u0085z");
    // Good UTF-8 stays: é (c3 a9), ✓ (e2 9c 93), 😀 (f0 9f 98 80).
    CHECK(escapedForMessage("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80");
    // Not UTF-8, byte by byte: a stray continuation byte, a lead byte cut short, an overlong
    // '/' (c0 af), a surrogate (ed a0 80) and a code point above U+10FFFF (f4 90 80 80).
    CHECK(escapedForMessage("\x80") == "\\x80");
    CHECK(escapedForMessage("a\xc3") == "a\\xc3");
    CHECK(escapedForMessage("\xc0\xaf") == "\\xc0\\xaf");
    CHECK(escapedForMessage("\xed\xa0\x80") == "\\xed\\xa0\\x80");
    CHECK(escapedForMessage("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");
    // Long text is shortened by characters, with a mark: 5 of "abcdefgh", then "…".
    CHECK(escapedForMessage("abcdefgh", 5) == "abcde…");
    CHECK(escapedForMessage("abcde", 5) == "abcde");
}

TEST_CASE("a name is 1-64 ASCII letters, digits, '.', '_' and '-'; the problem is named") {
    using namespace std::string_literals;
    CHECK_FALSE(nameProblem("vc-7.a_B"));
    CHECK_FALSE(nameProblem(std::string(64, 'x')));
    CHECK(nameProblem("") == "must not be empty");
    CHECK(nameProblem(std::string(65, 'x')) ==
          "\"" + std::string(65, 'x') + "\" is longer than 64 characters");
    CHECK(nameProblem("a\0b"s) == "\"a\\u0000b\" holds a NUL byte");
    CHECK(nameProblem("a\tb") == "\"a\\u0009b\" holds a control character (\\u0009)");
    CHECK(nameProblem("a\xff") == "\"a\\xff\" is not UTF-8 text (byte \\xff)");
    CHECK(nameProblem("a\"b") == "\"a\"b\" holds a quote (\")");
    CHECK(nameProblem("a,b") == "\"a,b\" may only use letters, digits, '.', '_' and '-'");
    CHECK(nameProblem("caf\xc3\xa9") ==
          "\"caf\xc3\xa9\" may only use letters, digits, '.', '_' and '-'");
}
