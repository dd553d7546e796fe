// CaptureFlow tests land with the capture-flow issue.
