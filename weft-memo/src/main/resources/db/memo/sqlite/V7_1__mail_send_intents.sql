-- A send is recorded before it is made: INTENDED with its Message-ID before the SMTP server is asked,
-- SENT once it accepted. A step that runs again after a crash finds an INTENDED send and looks for the
-- mail where it would be (the Sent folder, and the sender's own copy in INBOX) before sending again.
-- Rows from before this migration were written after sending: they are SENT.
ALTER TABLE memo_mail_sent ADD COLUMN status TEXT NOT NULL DEFAULT 'SENT';
