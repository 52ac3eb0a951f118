// What the basic-settings resources do beyond the generic rules: one default company title per company,
// logos that are images of the company, and the placeholders an e-mail template uses.
import { sql } from 'kysely';
import { placeholdersOf } from '../domain/email.ts';
import type { FieldError } from '../http/errors.ts';
import type { Tenant } from '../catalog/tenant.ts';
import type { ResourceHooks } from './hooks.ts';

const isOn = (v: unknown) => v === 1 || v === true || v === '1';

/** A media id must name an image uploaded by the same company. */
export async function checkLogo(tenant: Tenant, mediaId: unknown, field: string): Promise<FieldError[]> {
  if (mediaId === null || mediaId === undefined || mediaId === '') return [];
  const media = await tenant.select('media').select('mime').where('id', '=', String(mediaId)).executeTakeFirst();
  if (!media) return [{ field, message: '标志图片不存在，请重新上传' }];
  if (!String(media.mime).startsWith('image/')) return [{ field, message: '标志必须是图片（PNG、JPEG、GIF 或 WebP）' }];
  return [];
}

export const SETTINGS_HOOKS: Record<string, ResourceHooks> = {
  companyRise: {
    async validate({ tenant, values }) {
      return 'logoId' in values ? checkLogo(tenant, values.logoId, 'logoId') : [];
    },
    async afterSave({ tenant, id, values }) {
      // At most one default title: the one just marked default takes the flag from the others.
      if (!isOn(values.isDefault)) return;
      await tenant.update('companyRise').set({ isDefault: 0, version: sql`${sql.ref('version')} + 1`, updatedAt: new Date().toISOString() })
        .where('id', '!=', Number(id)).where('isDefault', '=', 1).execute();
    },
  },
  emailTemplate: {
    decorate(rows) {
      for (const row of rows) row.placeholders = placeholdersOf(String(row.subject ?? ''), String(row.body ?? ''));
    },
  },
};
