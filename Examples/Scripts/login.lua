-- wrk script: every request logs the one benchmark account in (bench@example.com, signed up
-- before the run). Each log-in derives the password's PBKDF2 key once and replaces the account's
-- session in one SQLite transaction.
wrk.method = "POST"
wrk.path = "/auth/login"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"email":"bench@example.com","password":"password-1"}'
