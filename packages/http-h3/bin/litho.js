#!/usr/bin/env node
// The `litho` command. A committed file, not dist/cli.js itself: package managers link bins at
// install, before the build has made dist/, and skip a bin whose file is missing.
import '../dist/cli.js'
