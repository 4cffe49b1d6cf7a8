// AppCore's public API is written in HTTPServiceKit's types (`resolveHTTPService() -> any
// HTTPServiceType`, `Secret` tokens, `HTTPError` inside its errors), and the blog's code imports only
// AppCore, so AppCore re-exports the wrapper, as swift-nio's `NIO` re-exports `NIOCore`. An app that
// wants only the wrapper imports HTTPServiceKit and gets none of AppCore's names.
@_exported public import HTTPServiceKit
