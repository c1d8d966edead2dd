import { useQuery } from '@tanstack/react-query';
import { getAccount } from '@lnk/sdk';
import { client } from '../../api/client';
import { answer } from '../../api/errors';
import { Page } from '../../components/page';
import { ErrorState, Loading } from '../../components/states';
import { ACCOUNT } from './account-change';
import { ChangeEmail } from './change-email';
import { ChangeName } from './change-name';
import { ChangePassword } from './change-password';
import { DeleteAccount } from './delete-account';
import { TwoFactor } from './two-factor';

export function AccountPage() {
  const account = useQuery({ queryKey: ACCOUNT, queryFn: () => answer(getAccount({ client })) });
  return (
    <Page title="Account">
      {account.isPending ? (
        <Loading what="Loading your account" />
      ) : account.isError ? (
        <ErrorState error={account.error} retry={() => void account.refetch()} />
      ) : (
        <section className="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          <dl className="facts">
            <dt>E-mail</dt>
            <dd>
              {account.data.data.email}{' '}
              {account.data.data.isVerified ? (
                <span className="badge">verified</span>
              ) : (
                <span className="badge badge-warn">not verified yet</span>
              )}
            </dd>
            <dt>Name</dt>
            <dd>{account.data.data.name || 'Not set'}</dd>
            <dt>Member since</dt>
            <dd>{new Date(account.data.data.createdAt).toLocaleDateString()}</dd>
          </dl>
        </section>
      )}
      {/* Once the account is read: the field starts from the name it has. */}
      {account.isSuccess && <ChangeName current={account.data.data.name ?? ''} />}
      <ChangeEmail />
      <ChangePassword />
      <TwoFactor />
      <DeleteAccount />
    </Page>
  );
}
