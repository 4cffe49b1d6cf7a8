extension DependencyContainer {
    /// Makes a resolve's body build the type the resolve declares.
    ///
    /// Every builder — `fresh {}`, `live {}`, `shared {}`, `weakShared {}`, `shared(in:) {}`,
    /// `perGraph {}` — takes its body with this attribute, so that its type comes from the resolve's
    /// declared return type, not from the body:
    ///
    /// ```swift
    /// func resolveClock() -> any Clock { live { SystemClock() } }
    /// // Builds an `any Clock`, so `.override({ $0.resolveClock() }, with: FixedClock(fixedHour: 9))`
    /// // answers it. Without the attribute Swift would infer `SystemClock` from the body.
    /// ```
    ///
    /// You never name it. A body may be:
    ///
    /// - **one expression**, including `try`, `await`, `if`/`else` and `switch`: `live { SystemClock() }`;
    /// - **statements, then the value**: `let`s, calls that return nothing, `if`/`else`, `switch`
    ///   around such calls, and last the value, without `return`:
    ///   `fresh { let clock = resolveClock(); Greeter(clock: clock) }`;
    /// - **an ordinary closure with `return`**, for `guard`, `defer`, `for` or `do`/`catch`: Swift checks
    ///   it against the declared type too, unless it is a single `return` statement.
    ///
    /// A body that is only `return SystemClock()` builds a `SystemClock`: Swift reads a one-line
    /// `return` as the closure's type. Drop the `return`, or write `SystemClock() as any Clock`.
    ///
    /// The type comes from the context of the call, so a builder called outside a resolve builds what
    /// that context asks for: `container.shared { Token() } === other` builds an `AnyObject`. Bind
    /// the value to a `let` first to build a `Token`.
    ///
    /// The builder adds no code: its methods return what they are given and are always inlined, in
    /// debug builds too.
    @resultBuilder
    public enum ResolveBuilder<Value> {
        /// Passes the body's value through, converted to the declared type.
        /// - Parameter value: The value an expression of the body produces.
        /// - Returns: `value`.
        @_transparent
        public static func buildExpression(_ value: Value) -> Value { value }

        /// Lets a statement that returns nothing (a call, an assignment) run before the value.
        /// - Parameter value: Nothing.
        @_transparent @_disfavoredOverload
        public static func buildExpression(_ value: Void) {}

        /// Lets a body end in a call that never returns, such as `fatalError()`.
        /// - Parameter value: Never produced.
        /// - Returns: Never.
        @_transparent
        public static func buildExpression(_ value: Never) -> Value {}

        /// The body's first statement, when it is the value.
        /// - Parameter first: The value.
        /// - Returns: `first`.
        @_transparent
        public static func buildPartialBlock(first: Value) -> Value { first }

        /// The body's first statement, when it returns nothing.
        /// - Parameter first: Nothing.
        @_transparent @_disfavoredOverload
        public static func buildPartialBlock(first: Void) {}

        /// The value, after statements that return nothing.
        /// - Parameters:
        ///   - accumulated: Nothing.
        ///   - next: The value.
        /// - Returns: `next`.
        @_transparent
        public static func buildPartialBlock(accumulated: Void, next: Value) -> Value { next }

        /// A statement that returns nothing, after others.
        /// - Parameters:
        ///   - accumulated: Nothing.
        ///   - next: Nothing.
        @_transparent @_disfavoredOverload
        public static func buildPartialBlock(accumulated: Void, next: Void) {}

        /// The value of an `if` branch or a `switch` case.
        /// - Parameter first: The branch's value.
        /// - Returns: `first`.
        @_transparent
        public static func buildEither(first: Value) -> Value { first }

        /// The value of an `else` branch or a later `switch` case.
        /// - Parameter second: The branch's value.
        /// - Returns: `second`.
        @_transparent
        public static func buildEither(second: Value) -> Value { second }

        /// An `if` branch or a `switch` case of statements that return nothing.
        /// - Parameter first: Nothing.
        @_transparent @_disfavoredOverload
        public static func buildEither(first: Void) {}

        /// An `else` branch or a later `switch` case of statements that return nothing.
        /// - Parameter second: Nothing.
        @_transparent @_disfavoredOverload
        public static func buildEither(second: Void) {}

        /// A body that only throws, such as `fresh { throw MissingSetting() }`.
        ///
        /// The call after the `throw` is never reached. An empty body also comes here, and stops
        /// the resolve with a message: a body must build its value.
        /// - Returns: Never: it stops the process.
        @_alwaysEmitIntoClient
        public static func buildBlock() -> Value {
            fatalError("A resolve's builder was given an empty body: `fresh {}` and the others must build the value")
        }

        /// An `if` without `else` around statements that return nothing.
        /// - Parameter component: Nothing, or `nil` when the condition was false.
        @_transparent
        public static func buildOptional(_ component: Void?) {}

    }
}
