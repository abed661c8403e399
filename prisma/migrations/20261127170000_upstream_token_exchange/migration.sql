-- Upstreams that see the person (docs/design/access.md#how-a-person-reaches-an-upstream): a token
-- issued by token exchange keeps the person's subject token, sealed like a Secret, for as long as it
-- lives, so an upstream with `grantType: token_exchange` can exchange it again at its own
-- authorization server. Revoking or expiring the token deletes the row, and the subject token with it.
ALTER TABLE "DelegatedAccessToken" ADD COLUMN "subjectCiphertext" BYTEA;
ALTER TABLE "DelegatedAccessToken" ADD COLUMN "subjectKeyId" TEXT;
ALTER TABLE "DelegatedAccessToken" ADD COLUMN "subjectTokenType" TEXT;
