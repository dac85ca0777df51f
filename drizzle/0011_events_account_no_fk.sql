ALTER TABLE "events" DROP CONSTRAINT "events_account_id_accounts_id_fk";
