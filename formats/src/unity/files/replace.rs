//! Writing a game file back with one object replaced (issue 12).
