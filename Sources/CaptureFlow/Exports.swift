// The value types the modules exchange moved to CaptureModel (issue #26). Re-exported here for
// now so that code written against CaptureFlow keeps compiling while other branches merge; new
// code imports CaptureModel itself (DESIGN.md "Package layout").
@_exported import CaptureModel
