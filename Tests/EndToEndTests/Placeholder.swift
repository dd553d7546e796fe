// End-to-end tests of the built binary land with the end-to-end issue.
