import { arrayOf, boolean, instant, integer, literal, nullable, object, ref, string, type SchemaSet } from '@app/shared/openapi';

// The profile's response body for the OpenAPI document (the sign-in routes answer pages and redirects).

export const authSchemas: SchemaSet = {
  Profile: object({
    email: string(),
    name: nullable(string()),
    brokerage_account: nullable(string()),
    account_id: nullable(integer()),
    created_at: instant(),
    last_login: nullable(instant()),
  }),
  ProfileResponse: object({ success: literal(true), profile: ref('Profile') }),
  Account: object({
    account_id: integer(),
    account_number: string(),
    default: boolean({ description: "The profile's account: where `POST /api/upload-csv` imports." }),
  }),
  AccountsResponse: object({ success: literal(true), accounts: arrayOf(ref('Account')) }),
};
