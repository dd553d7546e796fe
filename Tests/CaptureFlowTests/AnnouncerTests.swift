import CaptureFlow
import CaptureModel
import Testing

/// Issue #17: announcements (what and when), sound cues, and the oval's flash limit.
@Suite struct AnnouncerTests {
    static let left = Announcement(.hint, key: "selfie_capture_announce_move_left", hint: .moveLeft)
    static let closer = Announcement(.hint, key: "selfie_capture_hint_get_closer", hint: .getCloser)
    static let still = Announcement(.hint, key: "selfie_capture_hint_hold_still", hint: .holdStill)
    static func count(_ n: Int) -> Announcement {
        Announcement(.countdown, key: "selfie_capture_announce_countdown", arguments: [.int(n)])
    }

    /// Plays `script` (time ms, state's announcement) on a manual clock stepping 50 ms and
    /// returns what was said and when.
    func play(_ script: [(Int, Announcement?)], until end: Int) -> [(Int, Announcement)] {
        var pacer = AnnouncementPacer()
        var said: [(Int, Announcement)] = []
        var i = 0
        var t = 0
        while t <= end {
            while i < script.count, script[i].0 <= t { pacer.observe(script[i].1); i += 1 }
            if let a = pacer.poll(nowMs: t) { said.append((t, a)) }
            t += 50
        }
        return said
    }

    @Test func atMostOneEveryWindowAndNewestWins() {
        // A face wandering: closer at 0, left at 300, closer again at 600, hold still at 900,
        // left at 1200, hold still at 1400 (and stays).
        let said = play([(0, Self.closer), (300, Self.left), (600, Self.closer), (900, Self.still),
                         (1200, Self.left), (1400, Self.still)], until: 5000)
        // Said at once: closer. The window then holds everything else until 1500, when the
        // state is "hold still": the intermediate left/closer/left are never said (no backlog).
        #expect(said.map(\.0) == [0, 1500])
        #expect(said.map(\.1) == [Self.closer, Self.still])
    }

    @Test func aStateThatComesBackCancelsTheQueuedOne() {
        // Left said at 0; closer for 0.5 s, then left again before the window opens: nothing more.
        let said = play([(0, Self.left), (200, Self.closer), (700, Self.left)], until: 4000)
        #expect(said.map(\.1) == [Self.left])
    }

    @Test func countdownNumbersOnlyWhenTheyChange() {
        // A 3 s countdown polled every 50 ms: the number is observed ~20 times per value.
        let said = play([(0, Self.count(3)), (1000, Self.count(2)), (2000, Self.count(1)), (3000, nil)], until: 5000)
        // 3 at 0; 2 changed at 1000 but waits for 1500 (still 2 then); 1 at 2000 waits for 3000,
        // when the state has moved on (nothing to say): the stale "1" is not said.
        #expect(said.map(\.0) == [0, 1500])
        #expect(said.map(\.1) == [Self.count(3), Self.count(2)])
        // Slow enough for the window: each number once.
        var pacer = AnnouncementPacer()
        var out: [Announcement] = []
        for t in stride(from: 0, through: 6000, by: 100) {
            pacer.observe(Self.count(3 - min(2, t / 2000)))
            if let a = pacer.poll(nowMs: t) { out.append(a) }
        }
        #expect(out == [Self.count(3), Self.count(2), Self.count(1)])
    }

    @Test func everySaidAnnouncementIsTheStateOfItsTime() {
        // Random state changes; property: each announcement equals the state at the moment it
        // is said, and two are never closer than 1.5 s.
        var rng = SplitMixLite(seed: 17)
        let states: [Announcement?] = [Self.left, Self.closer, Self.still, Self.count(1), nil]
        var pacer = AnnouncementPacer()
        var lastT: Int?
        var state: Announcement? = nil
        for t in stride(from: 0, to: 60_000, by: 33) {
            if rng.next() % 7 == 0 { state = states[Int(rng.next() % UInt64(states.count))] }
            pacer.observe(state)
            if let a = pacer.poll(nowMs: t) {
                #expect(a == state)
                if let l = lastT { #expect(t - l >= 1500) }
                lastT = t
            }
        }
        #expect(lastT != nil)
    }

    @Test func directionsAreThePersonsOwn() {
        // The physical rule: the camera faces the person, so a face in the RIGHT part of the raw
        // camera frame belongs to a person standing to their own LEFT of the oval; they must move
        // to their right, whether or not the preview is mirrored.
        for mirror in [true, false] {
            var config = GuidanceConfig()
            config.mirror = mirror
            let rawRight = GuidanceRules.judge(frame([face(cx: 0.65)]), config: config)
            #expect(AnnouncementRules.hint(rawRight.hint, mirrored: mirror).key == "selfie_capture_announce_move_right")
            let rawLeft = GuidanceRules.judge(frame([face(cx: 0.35)]), config: config)
            #expect(AnnouncementRules.hint(rawLeft.hint, mirrored: mirror).key == "selfie_capture_announce_move_left")
            // Up and down are the same for everyone: a face high in the frame moves down.
            let high = GuidanceRules.judge(frame([face(cy: 0.35)]), config: config)
            #expect(AnnouncementRules.hint(high.hint, mirrored: mirror).key == "selfie_capture_announce_move_down")
        }
        // Other hints say their own text.
        #expect(AnnouncementRules.hint(.getCloser).key == Hint.getCloser.stringKey)
    }

    @Test func rulesFollowTheFlow() {
        var d = Driver(FlowSettings(session: SessionConfig(uiConfig: UiConfig(showInstructions: false))))
        d.send(.started)
        #expect(AnnouncementRules.current(d.m)?.kind == .loading)
        d = Driver()
        d.send(.started)   // the instructions show while the model loads
        d.send(.modelLoaded)
        #expect(AnnouncementRules.current(d.m)?.key == "selfie_capture_announce_instructions")
        d.key(.enter)
        #expect(AnnouncementRules.current(d.m)?.key == "selfie_capture_announce_permission")
        d.key(.enter)
        #expect(AnnouncementRules.current(d.m) == nil)   // the camera is opening
        d.send(.permissionGranted)
        d.send(.cameraFirstFrame)
        #expect(AnnouncementRules.current(d.m)?.key == "selfie_capture_announce_ready")
        d.key(.character("s"))
        d.advance(to: 100)
        d.frame(1, valid: false, still: false, hint: .moveLeft)
        #expect(AnnouncementRules.current(d.m) == Self.left)
        d.advance(to: 200)
        d.frame(2)   // valid and still: the countdown starts
        #expect(AnnouncementRules.current(d.m) == Self.count(1))
        d.advance(to: 1300)
        d.frame(3)
        #expect(d.m.phase == .recording)
        #expect(AnnouncementRules.current(d.m)?.key == "selfie_capture_announce_recording")
    }

    @Test func announcerPacesTheMachine() {
        var d = Driver()
        var a = Announcer()
        var said: [(Int, String)] = []
        func turn() { if let x = a.update(d.m, nowMs: d.now) { said.append((d.now, x.key)) } }
        d.toCaptureReady()
        turn()
        d.key(.character("s"))
        for (i, t) in stride(from: 0, to: 1400, by: 50).enumerated() {
            d.advance(to: t)
            // Flicker between two hints every 100 ms.
            d.frame(i, valid: false, still: false, hint: (t / 100) % 2 == 0 ? .moveLeft : .getCloser)
            turn()
        }
        for t in stride(from: 1400, to: 4000, by: 50) { d.advance(to: t); turn() }
        // "Press S" at once; the flickering hints wait for the window, then only the state of
        // that moment (the last hint) is said.
        #expect(said.map(\.0) == [0, 1500])
        #expect(said.map(\.1) == ["selfie_capture_announce_ready", "selfie_capture_hint_get_closer"])
    }
}

/// A tiny deterministic generator (SplitMix64) for the property test.
struct SplitMixLite {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct SoundCueTests {
    @Test func patternsAreDistinctAndAudibleOnXterm() {
        let sigs = SoundCue.allCases.map(\.pattern)
        #expect(Set(sigs.map { $0.description }).count == SoundCue.allCases.count)
        for p in sigs {
            #expect(p.first == 0)
            for (a, b) in zip(p, p.dropFirst()) { #expect(b - a >= 250) }   // > xterm's 200 ms bellSuppressTime
        }
    }

    @Test func cuesFromStates() {
        var s = BellSchedule()
        var rings: [Int] = []
        var t = 0
        func run(_ state: SoundState, for ms: Int) {
            s.observe(state)
            let end = t + ms
            while t < end {
                let n = s.due(nowMs: t)
                for _ in 0..<n { rings.append(t) }
                t += 10
            }
        }
        run(SoundState(), for: 1000)                                  // no face
        #expect(rings.isEmpty)
        run(SoundState(faceSeen: true), for: 2000)                    // face found: 2 slow
        #expect(rings == [1000, 1700])
        rings = []
        run(SoundState(faceSeen: true, valid: true), for: 1000)       // valid: 2 quick
        #expect(rings.count == 2 && rings[1] - rings[0] == 250)
        rings = []
        run(SoundState(faceSeen: true, valid: true, countdown: 1), for: 1000)
        #expect(rings.count == 1)
        rings = []
        run(SoundState(faceSeen: true, valid: true, recording: true), for: 1500)
        #expect(rings.count == 3)
        rings = []
        run(SoundState(done: true), for: 2000)
        #expect(rings.count == 4)
        #expect(!s.isBusy)
    }

    @Test func patternsNeverOverlapAndStaleGuidanceIsDropped() {
        var s = BellSchedule()
        s.add(.faceFound); s.add(.validPosition); s.add(.countdownTick)   // only the newest guidance cue stays
        var rings: [Int] = []
        for t in stride(from: 0, through: 5000, by: 10) {
            if t == 10 { s.add(.recordingStarted) }
            for _ in 0..<s.due(nowMs: t) { rings.append(t) }
        }
        #expect(rings == [0, 300, 550, 800])   // the tick, a 300 ms gap, then the recording's three
    }
}

@Suite struct FlashLimitTests {
    /// WCAG 2.1 SC 2.3.1: at most three changes of the oval's look in any one-second window of
    /// the clock, however the face flickers.
    @Test func flickeringFaceChangesTheOvalAtMostThreeTimesASecond() {
        for period in [33, 66, 100, 200, 250, 300, 400] {
            var g = Guidance()
            var m = Driver()
            m.toPositioning()
            var shown: [(Int, Bool)] = []
            var last: Bool?
            for i in 0..<300 {
                let t = i * 33
                // In the oval, then off to the side, switching every `period` ms.
                let inside = (t / period) % 2 == 0
                let r = g.judge(frame([face(cx: inside ? 0.5 : 0.7)], t: t, index: i))
                m.advance(to: t)
                m.send(.frameGuided(r))
                let v = m.m.guidance?.ovalValid ?? false
                if v != last { shown.append((t, v)); last = v }
            }
            let changes = shown.dropFirst().map(\.0)
            for c in changes {
                let inWindow = changes.filter { $0 >= c && $0 < c + 1000 }.count
                #expect(inWindow <= 3, "period \(period) ms: \(inWindow) changes in 1 s from \(c)")
            }
        }
    }

    @Test func limiterFollowsSlowChanges() {
        var l = FlashLimiter()
        #expect(l.update(false, nowMs: 0) == false)
        #expect(l.update(true, nowMs: 100) == false)   // too soon after the first state
        #expect(l.update(true, nowMs: 400) == true)
        #expect(l.update(false, nowMs: 500) == true)
        #expect(l.update(false, nowMs: 734) == false)
    }
}
