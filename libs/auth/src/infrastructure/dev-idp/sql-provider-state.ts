import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '@app/persistence';

/**
 * oidc-provider's storage (its `Adapter`) in the service's database, table `identity_provider_state`:
 * one row per stored model (Interaction, AuthorizationCode, Grant, Session …) and id, the payload as
 * JSON, with the grant (of grantable models), uid and user code it may be looked up by and when it expires. Expired rows
 * are never answered and are deleted as new ones are written.
 */
/**
 * The models whose rows a grant's revocation removes (oidc-provider's own memory adapter keeps the same
 * list). An Interaction or a Session also carries a grantId, but must outlive the revocation: signing
 * in as another address ends the earlier session (revoking its grant) in the middle of an interaction.
 */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PreAuthorizedCode']);

export function sqlProviderState(database: Database): (model: string) => Adapter {
  return (model) => new SqlProviderState(database, model);
}

class SqlProviderState implements Adapter {
  constructor(
    private readonly database: Database,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.database.manager.query(`DELETE FROM identity_provider_state WHERE expires_at < now()`);
    await this.database.manager.query(
      `INSERT INTO identity_provider_state (model, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (model, id) DO UPDATE
         SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
             user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
      [this.model, id, JSON.stringify(payload), GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null],
    );
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id = $2', id);
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid = $2', uid);
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.database.manager.query(
      `UPDATE identity_provider_state SET payload = jsonb_set(payload, '{consumed}', to_jsonb(floor(extract(epoch FROM now()))::bigint))
        WHERE model = $1 AND id = $2`,
      [this.model, id],
    );
  }

  async destroy(id: string): Promise<void> {
    await this.database.manager.query('DELETE FROM identity_provider_state WHERE model = $1 AND id = $2', [this.model, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // A grant's tokens and codes are stored under other models than the one asked: all of them go.
    await this.database.manager.query('DELETE FROM identity_provider_state WHERE grant_id = $1', [grantId]);
  }

  private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
    const rows: { payload: AdapterPayload }[] = await this.database.manager.query(
      `SELECT payload FROM identity_provider_state
        WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, value],
    );
    return rows[0]?.payload;
  }
}
