import Testing

@testable import DependencyKit

// A request's override scope (values only, made by `withOverrides`) takes the lean form, `ValueScope`, and
// keeps every promise of an override set: the same answers, innermost first, across both forms nested in
// either order, and the same instances owned. Each test checks the form it expects, so that a change that
// sends these scopes down the other form fails here rather than passing on the set.

/// The form of the override scope in effect.
private var scopeForm: String {
    switch Interception.overrides {
    case nil: "none"
    case is ValueScope: "values"
    case is OverrideSet: "set"
    default: "other"
    }
}

@Suite struct ValueScopeTests {
    @Test func valuesOnlyMakeAValueScopeThatAnswersAndEndsWithTheBlock() {
        let app = CoreNotes()
        withDependencies(app) {
            let (form, id, user) = notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "r1")) {
                (scopeForm, notesInjector.dependencies.resolveRequestID(), notesInjector.dependencies.resolveUser())
            }
            #expect(form == "values")
            #expect(id == "r1")
            #expect(user == "anonymous")
            #expect(notesInjector.dependencies.resolveRequestID() == "no request")
        }
    }

    @Test func overridesGivenTogetherAreReadInPlaceAndTheLaterOfTwoWins() async {
        // `withOverrides` reads its list in place as overrides without their container's type: the two must be
        // laid out alike, whatever the container type.
        for layout in [
            (
                MemoryLayout<DependencyContainer.Override<any NotesDependency>>.size,
                MemoryLayout<DependencyContainer.Override<any NotesDependency>>.stride,
                MemoryLayout<DependencyContainer.Override<any NotesDependency>>.alignment
            ),
            (
                MemoryLayout<DependencyContainer.Override<CoreNotes>>.size,
                MemoryLayout<DependencyContainer.Override<CoreNotes>>.stride,
                MemoryLayout<DependencyContainer.Override<CoreNotes>>.alignment
            ),
        ] {
            #expect(
                layout == (
                    MemoryLayout<AnyOverride>.size, MemoryLayout<AnyOverride>.stride,
                    MemoryLayout<AnyOverride>.alignment
                ))
        }
        let app = CoreNotes()
        let overrides: [DependencyContainer.Override<any NotesDependency>] = [
            .override({ $0.resolveRequestID() }, with: "first"),
            .override({ $0.resolveUser() }, with: "lin"),
            .override({ $0.resolveRequestID() }, with: "second"),
        ]
        let seenSync = withDependencies(app) {
            notesInjector.withOverrides(overrides[0], overrides[1], overrides[2]) {
                (scopeForm, notesInjector.dependencies.resolveRecorder())
            }
        }
        let seenAsync = await withDependencies(app) {
            await notesInjector.withOverrides(overrides[0], overrides[1], overrides[2]) {
                await Task.yield()
                return (scopeForm, notesInjector.dependencies.resolveRecorder())
            }
        }
        for (form, recorder) in [seenSync, seenAsync] {
            #expect(form == "values")
            #expect(recorder.requestID == "second")
            #expect(recorder.user == "lin")
        }
    }

    @Test func theInnerValueScopeWinsAndTheOuterOnesValuesStayInEffect() async {
        let app = CoreNotes()
        await withDependencies(app) {
            let seen = await notesInjector.withOverrides(
                .override({ $0.resolveRequestID() }, with: "outer"), .override({ $0.resolveUser() }, with: "ada")
            ) {
                await notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "inner")) {
                    await Task.yield()
                    return (scopeForm, notesInjector.dependencies.resolveRecorder())
                }
            }
            #expect(seen.0 == "values")
            #expect(seen.1.requestID == "inner")
            #expect(seen.1.user == "ada")
        }
    }

    @Test func theLaterOfTwoValuesForOneResolveWinsAsInASet() {
        let app = CoreNotes()
        let answers = withDependencies(app) {
            let values = notesInjector.withOverrides(
                .override({ $0.resolveRequestID() }, with: "first"),
                .override({ $0.resolveRequestID() }, with: "second")
            ) { (scopeForm, notesInjector.dependencies.resolveRequestID()) }
            // A test's scope, which reports the overrides nothing used (here, the shadowed one), is a set.
            let ignoreUnused: (String) -> Void = { _ in }
            let set = withDependencies(
                app,
                overriding: [
                    .override({ $0.resolveRequestID() }, with: "first"),
                    .override({ $0.resolveRequestID() }, with: "second"),
                ],
                reportingUnused: ignoreUnused
            ) { (scopeForm, app.resolveRequestID()) }
            return [values, set]
        }
        #expect(answers.map(\.0) == ["values", "set"])
        #expect(answers.map(\.1) == ["second", "second"])
    }

    @Test func aRelativeOverrideAmongValuesMakesASetWithTheValuesBelowIt() {
        let app = CoreNotes()
        let (form, id) = withDependencies(app) {
            notesInjector.withOverrides(
                .override({ $0.resolveRequestID() }, with: "r7"), .override({ $0.resolveRequestID() }) { $0 + "!" }
            ) { (scopeForm, notesInjector.dependencies.resolveRequestID()) }
        }
        #expect(form == "set")
        #expect(id == "r7!")
    }

    @Test func aRelativeOverrideInsideAValueScopeBuildsOnItsValue() async {
        let app = CoreNotes()
        let seen = await withDependencies(app) {
            await notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "r8")) {
                await notesInjector.withOverrides(.override({ $0.resolveRequestID() }) { $0 + "?" }) {
                    await Task.yield()
                    return (scopeForm, notesInjector.dependencies.resolveNotesService())
                }
            }
        }
        #expect(seen.0 == "set")
        #expect(seen.1.requestID == "r8?")
        #expect(seen.1.recorder.requestID == "r8?")
    }

    @Test func valuesInsideAnOverrideSetMakeASetAndTheInnerValueWins() {
        let app = CoreNotes()
        // A test's scope, which reports the overrides nothing used, is a set.
        let ignoreUnused: (String) -> Void = { _ in }
        let seen = withDependencies(
            app, overriding: [.override({ $0.resolveUser() }, with: "grace")], reportingUnused: ignoreUnused
        ) {
            notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "r9")) {
                (scopeForm, notesInjector.dependencies.resolveRecorder())
            }
        }
        #expect(seen.0 == "set")
        #expect(seen.1.requestID == "r9")
        #expect(seen.1.user == "grace")
    }

    @Test func moreValuesThanTheLimitMakeASetThatAnswersTheSame() {
        let app = CoreNotes()
        let overrides = (0...ValueScope.valueLimit).map { index in
            DependencyContainer.Override<any NotesDependency>.override({ $0.resolveRequestID() }, with: "v\(index)")
        }
        let seen = withDependencies(app) {
            notesInjector.withOverrides(.override({ $0.resolveUser() }, with: "lin")) {
                overrides.reduce(into: [(String, String, String)]()) { seen, override in
                    notesInjector.withOverrides(override) {
                        let recorder = notesInjector.dependencies.resolveRecorder()
                        seen.append((scopeForm, recorder.requestID, recorder.user))
                    }
                }
            }
        }
        #expect(seen.count == ValueScope.valueLimit + 1)
        #expect(seen.allSatisfy { $0.0 == "values" })
        #expect(seen.map(\.1) == (0...ValueScope.valueLimit).map { "v\($0)" })
        #expect(seen.allSatisfy { $0.2 == "lin" })
        // Nested deeper than the limit, the innermost scopes are sets, and still answer innermost first.
        func nest(_ depth: Int) -> (form: String, id: String, user: String) {
            guard depth <= ValueScope.valueLimit + 1 else {
                let recorder = notesInjector.dependencies.resolveRecorder()
                return (scopeForm, recorder.requestID, recorder.user)
            }
            return notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "d\(depth)")) {
                nest(depth + 1)
            }
        }
        let deepest = withDependencies(app) {
            notesInjector.withOverrides(.override({ $0.resolveUser() }, with: "lin")) { nest(1) }
        }
        #expect(deepest.form == "set")
        #expect(deepest.id == "d\(ValueScope.valueLimit + 1)")
        #expect(deepest.user == "lin")
    }

    @Test func aThousandNestedValueScopesAnswerInnermostFirstAndFreeWhatTheyOwn() {
        // Past the limit the scopes become sets, each taking the values around it: every level sees its own
        // request ID and the outermost user, and the instance the innermost owns is gone with the scopes.
        let app = CoreNotes()
        weak var owned: NoteStore?
        func nest(_ depth: Int) -> Int {
            guard depth <= 1_000 else {
                let store = notesInjector.dependencies.resolveScopedNoteStore()
                owned = store
                return store === notesInjector.dependencies.resolveScopedNoteStore() ? 0 : 1
            }
            return notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "d\(depth)")) {
                let recorder = notesInjector.dependencies.resolveRecorder()
                let wrong = recorder.requestID == "d\(depth)" && recorder.user == "lin" ? 0 : 1
                return wrong + nest(depth + 1)
            }
        }
        let wrong = withDependencies(app) {
            notesInjector.withOverrides(.override({ $0.resolveUser() }, with: "lin")) { nest(1) }
        }
        #expect(wrong == 0)
        #expect(owned == nil)
        #expect(app.storeBuilds.loadAcquire() == 1)
    }

    @Test func aValueScopeOwnsTheSharedInstancesResolvedInItAndFreesThemWhenItEnds() async {
        let app = CoreNotes()
        weak var owned: NoteStore?
        let outside = app.resolveScopedNoteStore()
        let (form, same, appStore) = await withDependencies(app) {
            await notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "r10")) {
                let first = notesInjector.dependencies.resolveScopedNoteStore()
                owned = first
                let again = await Task { notesInjector.dependencies.resolveScopedNoteStore() }.value
                return (scopeForm, first === again && first !== outside, notesInjector.dependencies.resolveNoteStore())
            }
        }
        #expect(form == "values")
        #expect(same)
        #expect(owned == nil)
        #expect(appStore === app.resolveNoteStore())
        #expect(app.resolveScopedNoteStore() === outside)
    }

    @Test func aThousandParallelRequestsSeeOnlyTheirOwnValuesAndLoseNoNote() async {
        let app = CoreNotes()
        let crossed = await withDependencies(app) {
            await withTaskGroup(of: Int.self) { group in
                for index in 0..<1_000 {
                    group.addTask {
                        await withRequestValues(id: "p\(index)", user: "u\(index % 13)") {
                            guard scopeForm == "values" else { return 1 }
                            let result = await postNote("n\(index)")
                            let nested = await withTaskGroup(of: String.self) { children in
                                children.addTask { notesInjector.dependencies.resolveRecorder().requestID }
                                return await children.next() ?? ""
                            }
                            return result.note.requestID == "p\(index)" && result.note.user == "u\(index % 13)"
                                && nested == "p\(index)" ? 0 : 1
                        }
                    }
                }
                return await group.reduce(0, +)
            }
        }
        #expect(crossed == 0)
        #expect(app.resolveNoteStore().all.count == 1_000)
        #expect(app.storeBuilds.loadRelaxed() == 1)
    }

    @Test func aContextCapturedInAValueScopeCarriesItsValuesToEscapingWork() async {
        let app = CoreNotes()
        let context = withDependencies(app) {
            notesInjector.withOverrides(.override({ $0.resolveRequestID() }, with: "r11")) {
                DependencyContainer.Context.capture()
            }
        }
        let id = await Task.detached { context.run { notesInjector.dependencies.resolveRequestID() } }.value
        #expect(id == "r11")
    }
}
