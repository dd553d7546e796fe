// Tests spawn children through the app's one primitive (`Spawn.ChildProcess`, issue #26);
// re-exported so every test target that imports TestSupport has it.
@_exported import Spawn
